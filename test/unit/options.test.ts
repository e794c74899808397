/** The shared option parsers (src/shell/options.ts) and the facts copied to keep start-up light. */
import * as sdk from '@modelcontextprotocol/client';
import { getDefaultEnvironment as sdkDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputError } from '../../src/model/input-error.js';
import { listParser, positiveInt, wordParser } from '../../src/shell/options.js';
import { levenshtein, splitList, suggest } from '../../src/model/words.js';
import { schemelessUrl, urlScheme } from '../../src/app/audit-target.js';
import { FILE_FORMATS, PRINT_FORMATS } from '../../src/model/formats.js';
import { SdkErrorCode, SdkHttpError } from '@modelcontextprotocol/client';
import { httpFailure } from '../../src/connect/http-failure.js';
import * as ours from '../../src/connect/protocol.js';
import { getDefaultEnvironment } from '../../src/launch/server-env.js';
import { fileErrorWords, jsonErrorWords } from '../../src/model/error-words.js';
import { REPORTERS } from '../../src/render/index.js';
import { describeZodError } from '../../src/model/zod-errors.js';
import { installHint } from '../../src/launch/npm.js';

const usage = (f: () => unknown) => {
  try {
    f();
  } catch (err) {
    expect(err).toBeInstanceOf(InputError);
    return (err as Error).message;
  }
  throw new Error('no error');
};

describe('list parser', () => {
  const formats = listParser('--format', FILE_FORMATS);

  it('splits, trims, lowercases and drops duplicates', () => {
    expect(splitList(' JSON, md,,json ')).toEqual(['json', 'md']);
    expect(formats('Json,HTML')).toEqual(['json', 'html']);
  });

  it('names the option and suggests the nearest word', () => {
    expect(usage(() => formats('json,htm'))).toBe(
      '--format: unknown "htm"; did you mean "html"? (expected one of: json, html, md, sarif, manifest, csv, ndjson)',
    );
    expect(usage(() => formats('xyzzy'))).not.toMatch(/did you mean/);
    expect(usage(() => formats(' , '))).toMatch(/^--format: expected a comma-separated list/);
  });

  it('explains a known word that does not apply before calling it unknown', () => {
    const scanFormats = listParser('--format', FILE_FORMATS, (w) => (w === 'table' ? 'prints only' : undefined));
    expect(usage(() => scanFormats('md,table'))).toBe('--format table: prints only');
  });

  it('single words too', () => {
    expect(wordParser('--format', ['text', 'md', 'json'])('MD')).toBe('md');
    expect(usage(() => wordParser('--fail-on', ['regression'])('regresion'))).toMatch(/did you mean "regression"/);
  });

  it('suggests only near words', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(suggest('unprotectd', ['unprotected', 'keyed'])).toBe('unprotected');
    expect(suggest('md', ['json', 'html'])).toBeUndefined();
  });
});

describe('numbers', () => {
  it('name their option', () => {
    expect(positiveInt('--timeout')('250')).toBe(250);
    for (const bad of ['abc', '0', '-1', '1.5', '', '2147483648']) {
      expect(usage(() => positiveInt('--timeout')(bad))).toBe(
        `--timeout must be a positive integer up to 2147483647, got "${bad}"`,
      );
    }
  });
});

describe('URL-looking words', () => {
  it('have a scheme; paths and Windows drives do not', () => {
    expect(urlScheme('ftp://x')).toBe('ftp');
    expect(urlScheme('HTTPS://x')).toBe('https');
    expect(urlScheme('git+ssh://x')).toBe('git+ssh');
    for (const word of ['node', './server.js', 'C:\\\\server.exe', '://x', '1a://x', 'a b://x'])
      expect(urlScheme(word)).toBeUndefined();
  });

  it('a URL without its scheme: a host and a port or a path; commands and file names are not', () => {
    expect(schemelessUrl('localhost:3000/mcp')).toBe('http://localhost:3000/mcp');
    expect(schemelessUrl('LOCALHOST:3000')).toBe('http://LOCALHOST:3000');
    expect(schemelessUrl('127.0.0.1:8080/mcp')).toBe('http://127.0.0.1:8080/mcp');
    expect(schemelessUrl('mcp.example.com/mcp')).toBe('https://mcp.example.com/mcp');
    expect(schemelessUrl('api.example.com:8443')).toBe('https://api.example.com:8443');
    for (const word of [
      'node',
      'server.js',
      'localhost',
      './localhost:3000/mcp',
      'dist/cli/main.js',
      'node_modules/.bin/server',
      '1.2.3/x',
      'localhost:http/x',
      'localhost:123456',
      'a..b/x',
      '-x.com/y',
      'x.c0m/y',
      'https://localhost:3000',
      'C:\\\\server.exe',
      'a.b/' + 'x'.repeat(3000),
    ])
      expect(schemelessUrl(word), word).toBeUndefined();
  });
});

describe('one source of truth, kept by these checks', () => {
  it('--format words agree with the reporters', () => {
    const files = Object.entries(REPORTERS)
      .filter(([, r]) => r.fileName)
      .map(([id]) => id);
    const prints = Object.entries(REPORTERS)
      .filter(([, r]) => !r.fileName)
      .map(([id]) => id);
    expect([...FILE_FORMATS].sort()).toEqual(files.sort());
    expect([...PRINT_FORMATS].sort()).toEqual(prints.sort());
  });

  it("the SDK's protocol constants, copied into connect/protocol.ts, are the SDK's", () => {
    expect(ours.PROTOCOL_VERSION_META_KEY).toBe(sdk.PROTOCOL_VERSION_META_KEY);
    expect(ours.CLIENT_INFO_META_KEY).toBe(sdk.CLIENT_INFO_META_KEY);
    expect(ours.CLIENT_CAPABILITIES_META_KEY).toBe(sdk.CLIENT_CAPABILITIES_META_KEY);
    expect(ours.SERVER_INFO_META_KEY).toBe(sdk.SERVER_INFO_META_KEY);
    expect(ours.LATEST_PROTOCOL_VERSION).toBe(sdk.LATEST_PROTOCOL_VERSION);
    expect(ours.SUPPORTED_PROTOCOL_VERSIONS).toEqual(sdk.SUPPORTED_PROTOCOL_VERSIONS);
    expect(ours.ProtocolErrorCode.UnsupportedProtocolVersion).toBe(sdk.ProtocolErrorCode.UnsupportedProtocolVersion);
    expect(ours.METHOD_NOT_FOUND).toBe(sdk.METHOD_NOT_FOUND);
  });

  it("getDefaultEnvironment() is the SDK's", () => {
    const saved = { ...process.env };
    try {
      Object.assign(process.env, { TERM: 'xterm', SHELL: '() { evil; }', SECRET_TOKEN: 'x' });
      expect(getDefaultEnvironment()).toEqual(sdkDefaultEnvironment());
      expect(getDefaultEnvironment()).not.toHaveProperty('SHELL');
      expect(getDefaultEnvironment()).not.toHaveProperty('SECRET_TOKEN');
    } finally {
      process.env = saved;
    }
  });
});

describe('error texts', () => {
  it('HTTP: the system error under "fetch failed", with address and port', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3000'), {
      code: 'ECONNREFUSED',
      address: '127.0.0.1',
      port: 3000,
    });
    expect(httpFailure(new TypeError('fetch failed', { cause: refused })).message).toBe(
      'ECONNREFUSED 127.0.0.1:3000: cannot reach the server (connection refused)',
    );
    // Both address families tried: an AggregateError holds the system errors.
    const both = Object.assign(new AggregateError([refused], ''), { code: 'ECONNREFUSED' });
    expect(httpFailure(new TypeError('fetch failed', { cause: both }), 'localhost:3000').message).toBe(
      'ECONNREFUSED localhost:3000: cannot reach the server (connection refused)',
    );
    const dns = Object.assign(new Error('getaddrinfo ENOTFOUND x.invalid'), {
      code: 'ENOTFOUND',
      hostname: 'x.invalid',
    });
    expect(httpFailure(new TypeError('fetch failed', { cause: dns })).message).toBe(
      'ENOTFOUND x.invalid: cannot reach the server (no such host)',
    );
    expect(httpFailure(new TypeError('fetch failed', { cause: new Error('bad port') }), '127.0.0.1:1').message).toBe(
      'cannot reach the server at 127.0.0.1:1: port 1 is blocked by fetch (a "bad port"): use another',
    );
  });

  it("an HTTP status is the SDK's SdkHttpError.status, or the SSE POST's own words, never a server's text", () => {
    const refused = httpFailure(
      new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, 'Error POSTing to endpoint: Not Found', { status: 404 }),
    );
    expect([refused.kind, refused.status, refused.message]).toEqual([
      'protocol',
      404,
      'HTTP 404: Error POSTing to endpoint: Not Found',
    ]);
    expect(httpFailure(new Error('Error POSTing to endpoint (HTTP 405): Method Not Allowed')).status).toBe(405);
    expect(
      httpFailure(
        new SdkHttpError(SdkErrorCode.ClientHttpAuthentication, 'Server returned 401 after re-authentication', {
          status: 401,
        }),
      ).kind,
    ).toBe('auth');
    // Words that merely mention a status (a server's answer quoted in a TypeError) are not one.
    const quoted = httpFailure(new TypeError('the server said: status 401 (code 404)'));
    expect([quoted.kind, quoted.status]).toEqual(['protocol', undefined]);
  });

  it('file system codes and JSON errors in words', () => {
    expect(fileErrorWords(Object.assign(new Error('x'), { code: 'ENOENT' }))).toBe('no such file (ENOENT)');
    expect(fileErrorWords(Object.assign(new Error('x'), { code: 'EISDIR' }))).toBe('is a directory (EISDIR)');
    expect(jsonErrorWords('CloseBraceExpected')).toBe('expected `}`');
  });

  it('an unknown field comes first, by name', () => {
    const entry = z.strictObject({ command: z.string() });
    const parsed = entry.safeParse({ comand: 'node' });
    expect(parsed.success).toBe(false);
    expect(describeZodError('servers[0]', parsed.error!)).toMatch(
      /^servers\[0\]: unknown field "comand"; servers\[0\]\.command: /,
    );
  });

  it('the missing-package hint is a command a shell reads back', () => {
    expect(installHint('/a/targets.json', '/c')).toBe('idemscan install /a/targets.json --cache-dir /c');
    expect(installHint("/my dir/it's.json", '/c')).toBe("idemscan install '/my dir/it'\\''s.json' --cache-dir /c");
  });
});
