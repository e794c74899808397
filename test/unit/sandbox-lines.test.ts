/** The line after a scan that says which sandbox ran (read from `servers[].target.sandbox`), and what root means. */
import { describe, expect, it } from 'vitest';
import { sandboxLines } from '../../src/cli/print-scan.js';
import type { ServerReport } from '../../src/model/schema.js';
import { okServer, reportOf } from '../helpers/reports.js';
import { streamOf } from '../../src/model/report-head.js';

const server = (name: string, sandbox?: string): ServerReport =>
  okServer(name, [], {
    target: sandbox
      ? { transport: 'stdio', command: 'node', sandbox: sandbox as 'none' }
      : { transport: 'http', url: 'http://127.0.0.1:1/' },
  });

const streamed = (...args: Parameters<typeof reportOf>) => streamOf(reportOf(...args));
/** The lines as stderr shows them (cli/say.ts `note`). */
const printed = (...args: Parameters<typeof sandboxLines>) => sandboxLines(...args).map((l) => `idemscan: ${l.text}\n`);

describe('sandboxLines', () => {
  it('names the mode and counts the stdio servers', () => {
    expect(printed(streamed([server('a', 'none'), server('b', 'none'), server('web')]), false)).toEqual([
      'idemscan: sandbox for 2 stdio servers: none (they ran with your rights, files and network included; --sandbox contains them)\n',
    ]);
    expect(printed(streamed([server('a', 'bubblewrap')], { options: { sandbox: true } }), false)).toEqual([
      'idemscan: sandbox for 1 stdio server: bubblewrap (no network, no home directories, read-only system)\n',
    ]);
  });

  it('several modes on one line; a mode it does not know by its id', () => {
    expect(
      printed(streamed([server('a', 'netns'), server('b', 'future-mode')], { options: { sandbox: true } }), false),
    ).toEqual([
      'idemscan: sandbox: network namespace only (no network but loopback; files and HOME are not protected) for 1 stdio server; future-mode for 1 stdio server\n',
    ]);
  });

  it('nothing for HTTP servers alone', () => {
    expect(printed(streamed([server('web')]), true)).toEqual([]);
  });

  it('as root: the PID namespace is no sandbox; under --sandbox the sandbox is the only protection', () => {
    expect(printed(streamed([server('a', 'none')], { options: { sandbox: false } }), true)[1]).toBe(
      'idemscan: running as root without --sandbox: the PID namespace each server runs in is not a sandbox, and the servers could change anything on this machine\n',
    );
    expect(printed(streamed([server('a', 'bubblewrap')], { options: { sandbox: true } }), true)[1]).toBe(
      'idemscan: running as root: the sandbox is the only protection between the servers and this machine\n',
    );
  });
});
