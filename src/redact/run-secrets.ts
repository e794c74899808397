/**
 * The one owner of a scan's secrets. Made once per run from the token store and the command-line
 * client secret; it gives each server its Redactor (the server's launch and the run's shared
 * secrets, then what connecting met, through `Redactor.add`), and once the servers have run it
 * redacts a server read back (from memory or the spool) with the tokens stored meanwhile.
 */
import type { ServerReport } from '../model/schema.js';
import type { Target } from '../targets/types.js';
import { redactServer } from './redact-report.js';
import { Redactor } from './redact.js';

/** The token store's secret values as it is now (read by connect/oauth/store.ts, which redact/ sits below). */
export type StoredSecrets = () => Promise<string[]>;

export class RunSecrets {
  /** What servers read back are redacted with; undefined: nothing more to redact. */
  private later?: Redactor;

  private constructor(
    private readonly shared: readonly string[],
    private readonly readStored: StoredSecrets,
    private readonly resumed: boolean,
  ) {}

  /**
   * Every token and client secret of the store, and the command-line client secret, are redacted
   * from every server's report: a server that read (or was sent) another server's token must not
   * publish it. `resumed`: some servers come from an earlier run (`--resume`).
   */
  static async open(
    readStored: StoredSecrets,
    clientSecret: string | undefined,
    resumed: boolean,
  ): Promise<RunSecrets> {
    const shared = [...(await readStored()), ...(clientSecret ? [clientSecret] : [])];
    return new RunSecrets(shared, readStored, resumed);
  }

  /** A server's one redactor: its launch's secrets and the run's; connecting adds what it meets. */
  server(target: Target): Redactor {
    return new Redactor({ ...target, secrets: [...(target.secrets ?? []), ...this.shared] });
  }

  /**
   * Once every server has run. Tokens stored while the pool ran (a sign-in, a grant) were not in the
   * set each server was redacted with as it finished, and a server that ran later may have read
   * them from the store. A server of an earlier run was redacted with what was stored then: with
   * one of those, every stored secret, now's and the run's.
   */
  async settle(): Promise<void> {
    const now = await this.readStored();
    const known = new Set(this.shared);
    const secrets = this.resumed ? [...new Set([...this.shared, ...now])] : now.filter((s) => !known.has(s));
    this.later = secrets.length > 0 ? new Redactor({ secrets }) : undefined;
  }

  /** A finished server as it is read back, redacted with what `settle()` found. */
  redactLater(server: ServerReport): ServerReport {
    return this.later ? redactServer(server, this.later) : server;
  }
}
