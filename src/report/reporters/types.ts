import type { Report } from '../schema.js';

/** A way to render a report. Registered by name in ./index.ts; `--format` picks them. */
export interface Reporter {
  id: string;
  /** File written under `--out`; reporters without one only print. */
  fileName?: string;
  render(report: Report): string;
}
