// The one owner of a scan's secrets. Redaction: docs/INTERNALS.md.
import type { ServerReport } from '../model/schema.js';
import type { Target } from '../targets/types.js';
import { redactServer } from './redact-report.js';
import { Redactor } from './redact.js';

/** Read by connect/oauth/store.ts, which redact/ sits below. */
export type StoredSecrets = () => Promise<string[]>;

export class RunSecrets {
  private later?: Redactor;

  private constructor(
    private readonly shared: readonly string[],
    private readonly readStored: StoredSecrets,
    private readonly resumed: boolean,
  ) {}

  /** Every stored secret goes to every server: one that read another server's token must not publish it. */
  static async open(
    readStored: StoredSecrets,
    clientSecret: string | undefined,
    resumed: boolean,
  ): Promise<RunSecrets> {
    const shared = [...(await readStored()), ...(clientSecret ? [clientSecret] : [])];
    return new RunSecrets(shared, readStored, resumed);
  }

  server(target: Target): Redactor {
    return new Redactor({ ...target, secrets: [...(target.secrets ?? []), ...this.shared] });
  }

  /** Tokens stored while the pool ran may have been read by a server that finished before them. */
  async settle(): Promise<void> {
    const now = await this.readStored();
    const known = new Set(this.shared);
    const secrets = this.resumed ? [...new Set([...this.shared, ...now])] : now.filter((s) => !known.has(s));
    this.later = secrets.length > 0 ? new Redactor({ secrets }) : undefined;
  }

  redactLater(server: ServerReport): ServerReport {
    return this.later ? redactServer(server, this.later) : server;
  }
}
