/** One token file per authorization server and MCP server, 0600 in a 0700 directory; fields: docs/OAUTH.md. */
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readBoundedTextSync } from '../../io/read.js';
import { MAX_JSON_DEPTH, parseJson } from '../../model/bounded-input.js';
import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';

export interface TokenRecord {
  version: 1;
  /** The MCP server URL signed in to (without fragment): what `logout URL` and scans match on. */
  serverUrl: string;
  issuer: string;
  /** How the client was obtained: dcr | cimd | preregistered | client-credentials. */
  registration: string;
  client?: StoredOAuthClientInformation;
  tokens?: StoredOAuthTokens;
  /** When `tokens` was saved (ms since the epoch), so that `expires_in` can be read as an expiry. */
  savedAt?: number;
  /** What discovery found (resource metadata, authorization server metadata), reused on refresh. */
  discovery?: OAuthDiscoveryState;
}

/** `https://x.example/mcp#frag` and `https://x.example/mcp` are one server. */
export function canonicalServerUrl(url: string): string {
  const u = new URL(url);
  u.hash = '';
  return u.href;
}

function oauthDir(cacheDir: string): string {
  return path.join(cacheDir, 'oauth');
}

export function recordFile(cacheDir: string, issuer: string, serverUrl: string): string {
  const id = createHash('sha256')
    .update(`${issuer}\n${canonicalServerUrl(serverUrl)}`)
    .digest('hex');
  return path.join(oauthDir(cacheDir), `${id}.json`);
}

/** A record holds a few tokens and the servers' metadata: far below this. */
const MAX_RECORD_BYTES = 1024 * 1024;

/** A damaged file is skipped; a server run without --sandbox could plant a FIFO (a blocked read) or a link. */
export function readRecords(cacheDir: string): { file: string; record: TokenRecord }[] {
  let names: string[];
  try {
    names = readdirSync(oauthDir(cacheDir));
  } catch {
    return [];
  }
  const out: { file: string; record: TokenRecord }[] = [];
  for (const name of names.filter((n) => n.endsWith('.json'))) {
    const file = path.join(oauthDir(cacheDir), name);
    const read = readBoundedTextSync(file, { maxBytes: MAX_RECORD_BYTES, noFollow: true });
    // unreadable: not ours to guess at
    const parsed =
      'text' in read ? parseJson(read.text, { maxBytes: MAX_RECORD_BYTES, maxDepth: MAX_JSON_DEPTH }) : read;
    const record = ('value' in parsed ? parsed.value : undefined) as TokenRecord | undefined;
    if (record?.version === 1 && typeof record.serverUrl === 'string' && typeof record.issuer === 'string')
      out.push({ file, record });
  }
  return out;
}

/** The newest record for this MCP server, if any (a server may have moved authorization servers). */
export function findRecord(cacheDir: string, serverUrl: string): TokenRecord | undefined {
  const url = canonicalServerUrl(serverUrl);
  return readRecords(cacheDir)
    .filter((r) => r.record.serverUrl === url)
    .sort((a, b) => (b.record.savedAt ?? 0) - (a.record.savedAt ?? 0))[0]?.record;
}

/** Read once per directory state: a list of 10,000 servers would read it 10,000 times (a write renames). */
let signedIn: { dir: string; stamp: string; urls: Set<string> } | undefined;

export function hasRecord(cacheDir: string, serverUrl: string): boolean {
  const dir = oauthDir(cacheDir);
  const st = statSync(dir, { throwIfNoEntry: false });
  if (!st) return false;
  const stamp = `${st.ino}:${st.mtimeMs}:${st.ctimeMs}`;
  if (signedIn?.dir !== dir || signedIn.stamp !== stamp)
    signedIn = { dir, stamp, urls: new Set(readRecords(cacheDir).map((r) => r.record.serverUrl)) };
  return signedIn.urls.has(canonicalServerUrl(serverUrl));
}

/** Written to a temp file and renamed: a crash never leaves half a token file. */
export function writeRecord(cacheDir: string, record: TokenRecord): string {
  const dir = oauthDir(cacheDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700); // it may have existed with looser bits
  const file = recordFile(cacheDir, record.issuer, record.serverUrl);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(record, null, 2) + '\n', { mode: 0o600 });
  renameSync(tmp, file);
  return file;
}

export function removeRecords(cacheDir: string, serverUrl?: string): string[] {
  const url = serverUrl === undefined ? undefined : canonicalServerUrl(serverUrl);
  const gone: string[] = [];
  for (const { file, record } of readRecords(cacheDir)) {
    if (url !== undefined && record.serverUrl !== url) continue;
    rmSync(file, { force: true });
    gone.push(file);
  }
  return gone;
}

/** Every secret a record holds: the redactor's input. */
export function recordSecrets(record: TokenRecord | undefined): string[] {
  if (!record) return [];
  const t = record.tokens;
  return [t?.access_token, t?.refresh_token, t?.id_token, record.client?.client_secret].filter(
    (v): v is string => typeof v === 'string' && v.length > 0,
  );
}
