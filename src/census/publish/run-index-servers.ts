/** The index's server pages, folded from the runs' reports one at a time; never prints nor writes. */
import path from 'node:path';
import { readReportFile, ReportFileError } from '../../compare/read.js';
import { SERVERS_DIR, type RunIndex } from './index-format.js';
import { pageNames, ServerHistory } from './server-history.js';
import type { Report } from '../../model/schema.js';
import type { ServerLink } from './index-page.js';
import { renderServerPage } from './server-page.js';

/** A report that cannot be read is left out, named through `skip`. */
export async function historyOf(
  root: string,
  index: RunIndex,
  own: { dir: string; report: Report },
  skip: (file: string, why: string) => void,
): Promise<ServerHistory> {
  const history = new ServerHistory();
  for (const entry of index.runs) {
    if (entry.dir === own.dir) {
      history.add(own.dir, own.report);
      continue;
    }
    if (!entry.files.includes('report.json')) continue;
    const file = path.join(root, entry.dir, 'report.json');
    try {
      history.add(entry.dir, (await readReportFile(file)).report);
    } catch (err) {
      if (!(err instanceof ReportFileError)) throw err;
      skip(file, err.detail);
    }
  }
  return history;
}

/** The links the index page lists: every server the index's runs hold, by name, with its page. */
export function serverLinks(index: RunIndex, history: ServerHistory): ServerLink[] {
  const names = history.names();
  const page = pageNames(names);
  return names.flatMap((name) => {
    const runs = history.rows(name, index).length;
    return runs === 0 ? [] : [{ name, page: page.get(name)!, runs }];
  });
}

/** The pages under ROOT/servers/ for `links`, made one at a time as they are written. */
export function* serverPageFiles(
  root: string,
  index: RunIndex,
  history: ServerHistory,
  links: readonly ServerLink[],
): Generator<{ dest: string; data: string }> {
  for (const { name, page } of links)
    yield {
      dest: path.join(root, SERVERS_DIR, `${page}.html`),
      data: renderServerPage(name, history.rows(name, index), index.runs.length),
    };
}
