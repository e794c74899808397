/** Every output format, by the name `--format` takes. */
import { csvReporter, ndjsonReporter } from './dataset.js';
import { htmlReporter } from './html/index.js';
import { jsonReporter } from './json.js';
import { manifestReporter } from './manifest.js';
import { markdownReporter } from './markdown.js';
import { sarifReporter } from './sarif.js';
import { tableReporter } from './table.js';
import { toolsReporter } from './tools.js';
import type { Reporter } from './types.js';

export const REPORTERS: Record<string, Reporter> = Object.fromEntries(
  [jsonReporter, tableReporter, toolsReporter, htmlReporter, markdownReporter, sarifReporter, manifestReporter, csvReporter, ndjsonReporter].map((r) => [r.id, r]),
);

export function reporter(id: string): Reporter {
  const r = REPORTERS[id];
  if (!r) throw new Error(`unknown format "${id}" (known: ${Object.keys(REPORTERS).join(', ')})`);
  return r;
}
