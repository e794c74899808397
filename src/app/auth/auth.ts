/** `login` and `logout` (docs/OAUTH.md); never prints: instructions go to `print`, the outcome is a value. */
import { defaultCacheDir } from '../../model/cache-dir.js';

export interface SignInOptions {
  cacheDir?: string;
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
  scopes?: string[];
  timeoutMs: number;
  print: (text: string) => void;
}

/** Signed in (`file`: where the tokens are), or why not, redacted of every secret met. */
export type SignedIn = { ok: true; file?: string } | { ok: false; message: string };

export async function signInTo(url: string, options: SignInOptions): Promise<SignedIn> {
  const cacheDir = options.cacheDir ?? defaultCacheDir();
  const { IdemscanOAuthProvider } = await import('../../connect/oauth/provider.js');
  const { signIn } = await import('../../connect/oauth/sign-in.js');
  const { findRecord, recordFile } = await import('../../connect/oauth/store.js');
  const provider = new IdemscanOAuthProvider(url, {
    cacheDir,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    clientMetadataUrl: options.clientMetadataUrl,
    scopes: options.scopes,
  });
  try {
    await signIn(provider, { timeoutMs: options.timeoutMs, print: options.print, scope: options.scopes?.join(' ') });
  } catch (err) {
    return { ok: false, message: await failureText(err, url, provider.secrets) };
  }
  const record = findRecord(cacheDir, url);
  return { ok: true, file: record ? recordFile(cacheDir, record.issuer, record.serverUrl) : undefined };
}

/** The SDK's errors may quote what the authorization server sent back, tokens included. */
async function failureText(err: unknown, url: string, secrets: Iterable<string>): Promise<string> {
  const [{ Redactor }, { httpFailure }] = await Promise.all([
    import('../../redact/redact.js'),
    import('../../connect/http-failure.js'),
  ]);
  // A network failure in the words a scan uses (`ECONNREFUSED 127.0.0.1:3000: ...`), not fetch's "fetch failed".
  const failure = httpFailure(err, new URL(url).host);
  return new Redactor({ secrets: [...secrets] }).text(
    failure.kind === 'unreachable' ? failure.message : String((err as Error)?.message ?? err),
  );
}

/** The token files removed: of `url`'s server, or of every server. */
export async function signOut(url: string | undefined, cacheDir?: string): Promise<string[]> {
  const { removeRecords } = await import('../../connect/oauth/store.js');
  return removeRecords(cacheDir ?? defaultCacheDir(), url);
}
