/** `JSON.stringify(report, null, 2)` byte for byte, a server at a time; JSON escaping keeps the marker unique. */
import { reportOf } from '../model/report-head.js';
import { streamingReporter } from './types.js';

const EMPTY_SERVERS = '\n  "servers": []';

export const jsonReporter = streamingReporter((report, out) => {
  const shell = JSON.stringify(reportOf(report.head, report.summary, []), null, 2);
  const at = shell.indexOf(EMPTY_SERVERS);
  out(`${shell.slice(0, at)}\n  "servers": [`);
  let first = true;
  return {
    server(server) {
      // Newlines in JSON text are the indentation's only: strings escape theirs.
      out(`${first ? '' : ','}\n    ${JSON.stringify(server, null, 2).replaceAll('\n', '\n    ')}`);
      first = false;
    },
    end() {
      out(first ? ']' : '\n  ]');
      out(`${shell.slice(at + EMPTY_SERVERS.length)}\n`);
    },
  };
});
