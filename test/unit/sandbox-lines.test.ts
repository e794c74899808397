/** The line after a scan that says which sandbox ran (counted from `servers[].target.sandbox` by the post-processing pass), and what root means. */
import { describe, expect, it } from 'vitest';
import { sandboxLines } from '../../src/render/sandbox-lines.js';
import type { ServerReport } from '../../src/model/schema.js';
import { okServer, reportOf } from '../helpers/reports.js';
import { postProcess } from '../../src/app/scan/post-process.js';

const server = (name: string, sandbox?: string): ServerReport =>
  okServer(name, [], {
    target: sandbox
      ? { transport: 'stdio', command: 'node', sandbox: sandbox as 'none' }
      : { transport: 'http', url: 'http://127.0.0.1:1/' },
  });

const streamed = (...args: Parameters<typeof reportOf>) => reportOf(...args);
/** The lines as stderr shows them (shell/say.ts `note`), from the counts the post-processing pass makes. */
const printed = async (report: ReturnType<typeof reportOf>, asRoot: boolean) => {
  const { servers, summary: _summary, ...head } = report;
  const { sandbox, stream } = await postProcess(head, () => servers, {});
  const { writable } = stream.head.options;
  return sandboxLines(sandbox, stream.head.options.sandbox === true, asRoot, writable).map(
    (l) => `idemscan: ${l.text}\n`,
  );
};

describe('sandboxLines', async () => {
  it('names the mode and counts the stdio servers', async () => {
    expect(await printed(streamed([server('a', 'none'), server('b', 'none'), server('web')]), false)).toEqual([
      'idemscan: sandbox for 2 stdio servers: none (they ran with your rights, files and network included; --sandbox contains them)\n',
    ]);
    expect(await printed(streamed([server('a', 'bubblewrap')], { options: { sandbox: true } }), false)).toEqual([
      'idemscan: sandbox for 1 stdio server: bubblewrap (no network, no home directories, read-only system)\n',
    ]);
  });

  it('several modes on one line; a mode it does not know by its id', async () => {
    expect(
      await printed(
        streamed([server('a', 'netns'), server('b', 'future-mode')], { options: { sandbox: true } }),
        false,
      ),
    ).toEqual([
      'idemscan: sandbox: network namespace only (no network but loopback; files and HOME are not protected) for 1 stdio server; future-mode for 1 stdio server\n',
    ]);
  });

  it('nothing for HTTP servers alone', async () => {
    expect(await printed(streamed([server('web')]), true)).toEqual([]);
  });

  it('as root: the PID namespace is no sandbox; under --sandbox the sandbox is the only protection', async () => {
    expect((await printed(streamed([server('a', 'none')], { options: { sandbox: false } }), true))[1]).toBe(
      'idemscan: running as root without --sandbox: the PID namespace each server runs in is not a sandbox, and the servers could change anything on this machine\n',
    );
    expect((await printed(streamed([server('a', 'bubblewrap')], { options: { sandbox: true } }), true))[1]).toBe(
      'idemscan: running as root: the sandbox is the only protection between the servers and this machine\n',
    );
  });

  it('--writable: the paths the servers could write, escaped, after the sandbox line', async () => {
    const options = { sandbox: true, writable: ['/srv/scratch', '/srv/\u001b[31mred'] };
    expect(await printed(streamed([server('a', 'bubblewrap')], { options }), false)).toEqual([
      'idemscan: sandbox for 1 stdio server: bubblewrap (no network, no home directories, read-only system)\n',
      'idemscan: writable inside the sandbox of every server (--writable): /srv/scratch, /srv/\\u001b[31mred\n',
    ]);
  });
});
