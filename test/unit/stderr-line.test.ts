/** The stderr line shown under a failed server: the one that says what went wrong, not the footer. */
import { describe, expect, it } from 'vitest';
import { failureLines } from '../../src/render/table.js';
import { tellingLine } from '../../src/render/stderr-line.js';
import { okServer } from '../helpers/reports.js';

const NODE_MISSING_MODULE = `node:internal/modules/cjs/loader:1228
  throw err;
  ^

Error: Cannot find module '/srv/notes/dist/index.js'
    at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)
    at node:internal/main/run_main_module:28:49 {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}

Node.js v20.20.2
`;

const PYTHON = `Traceback (most recent call last):\r\n  File "/srv/server.py", line 3, in <module>\r\n    import mcp\r\nModuleNotFoundError: No module named 'mcp'\r\n`;

describe('tellingLine', () => {
  it('Node\'s missing module: the Error line, not "Node.js v20.20.2"', () => {
    expect(tellingLine(NODE_MISSING_MODULE)).toBe("Error: Cannot find module '/srv/notes/dist/index.js'");
  });
  it("Python's traceback, CRLF: the exception line", () => {
    expect(tellingLine(PYTHON)).toBe("ModuleNotFoundError: No module named 'mcp'");
  });
  it('nothing telling: the last line with something on it; nothing: empty', () => {
    expect(tellingLine('starting\nlistening on stdio\n\n  \n')).toBe('listening on stdio');
    expect(tellingLine('\n \r\n')).toBe('');
    expect(tellingLine('')).toBe('');
  });
  it('other markers: ENOENT, error:, fatal', () => {
    expect(tellingLine('a\nspawn ENOENT while starting\nbye')).toBe('spawn ENOENT while starting');
    expect(tellingLine('a\nerror: config missing\nbye')).toBe('error: config missing');
    expect(tellingLine('fatal: could not open database /nonexistent\n')).toBe(
      'fatal: could not open database /nonexistent',
    );
  });
  it('linear on a hostile tail: a megabyte of one line, and of empty lines', () => {
    const started = performance.now();
    tellingLine('x'.repeat(1 << 20));
    tellingLine('\n'.repeat(1 << 20));
    tellingLine('Err\n'.repeat(1 << 18));
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

it('the table shows that line under a failed server', () => {
  const s = {
    ...okServer('notes', []),
    status: 'failed' as const,
    failure: { kind: 'exited' as const, message: 'the server exited with code 1', stderr: NODE_MISSING_MODULE },
  };
  expect(failureLines(s)).toEqual([
    'exited: the server exited with code 1',
    "stderr: Error: Cannot find module '/srv/notes/dist/index.js'",
  ]);
});
