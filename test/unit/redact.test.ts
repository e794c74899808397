import { describe, expect, it } from 'vitest';
import { bounded, boundedDescription, boundedTail, DESCRIPTION_LIMIT } from '../../src/model/bounds.js';
import { expandFields } from '../../src/targets/expand.js';
import { describeTarget, Redactor } from '../../src/redact/redact.js';
import { redactDeep, redactServer } from '../../src/redact/redact-report.js';
import { serverReport, toolReport } from '../helpers/reports.js';
import { serverAdvice } from '../../src/model/advice.js';

describe('redaction', () => {
  it('keeps env and header names, never their values', () => {
    const info = describeTarget({
      name: 'x',
      source: 'f',
      transport: 'http',
      url: 'https://api.example.test/mcp?token=s3cr3t-value&mode=x',
      headers: { Authorization: 'Bearer abcdefghijklmnop' },
      env: { API_TOKEN: 'zzz-secret-zzz' },
    });
    const text = JSON.stringify(info);
    expect(info.headers).toEqual(['Authorization']);
    expect(info.env).toEqual(['API_TOKEN']);
    expect(text).not.toContain('s3cr3t-value');
    expect(text).not.toContain('abcdefghijklmnop');
    expect(text).not.toContain('zzz-secret-zzz');
  });

  it('redacts tokens in args: flag values, known token shapes, URL passwords, declared secrets', () => {
    const r = new Redactor({ env: { DB_PASSWORD: 'hunter2-long' } });
    const out = r.args([
      '--api-key',
      'abc123',
      '--token=xyz789',
      'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      'postgresql://user:pw-secret@db/x',
      'plain',
      'value-hunter2-long',
    ]);
    expect(out.join(' ')).not.toMatch(/abc123|xyz789|ghp_abc|pw-secret|hunter2-long/);
    expect(out).toContain('plain');
  });

  it('cleans stderr of the values it was given', () => {
    const r = new Redactor({ env: { SLACK_BOT_TOKEN: 'xoxb-1234-abcd' } });
    expect(r.text('auth failed for xoxb-1234-abcd')).toBe('auth failed for [REDACTED]');
  });

  it('redacts a password in a database URL given as an argument', () => {
    const info = describeTarget({
      name: 'pg',
      source: 'f',
      transport: 'stdio',
      command: 'node',
      args: ['s.js', 'postgresql://app:pa55w0rd-x@db.internal/prod'],
    });
    expect(JSON.stringify(info)).not.toContain('pa55w0rd-x');
  });

  it('treats values as secrets by their name or their shape, and leaves ordinary words alone', () => {
    const r = new Redactor({
      env: {
        NODE_ENV: 'production',
        ROOT: '/tmp/x',
        ACCEPT: 'application/json',
        MYSQL_USER: 'idemscan',
        DB_PASS: 'hunter22',
        OPAQUE: 'zq7Xvalue99abc',
      },
      headers: { Authorization: 'Bearer abc123def456' },
    });
    const out = r.text(
      'Deploy to production from /tmp/x as application/json for idemscan with a Bearer token: hunter22 zq7Xvalue99abc abc123def456 fast',
    );
    expect(out).toBe(
      'Deploy to production from /tmp/x as application/json for idemscan with a Bearer token: [REDACTED] [REDACTED] [REDACTED] fast',
    );
  });

  it('redacts the Basic credentials derived from a URL', () => {
    const r = new Redactor({ url: 'https://bob:s3cret-pw@example.test/mcp' });
    expect(r.text(`got ${Buffer.from('bob:s3cret-pw').toString('base64')} and s3cret-pw`)).toBe(
      'got [REDACTED] and [REDACTED]',
    );
  });
});

/** Every 4+ character prefix and suffix of `secret` that `text` still holds. */
function leftovers(text: string, secret: string): string[] {
  const parts: string[] = [];
  for (let n = 4; n <= secret.length; n++) parts.push(secret.slice(0, n), secret.slice(-n));
  return parts.filter((p) => text.includes(p));
}

describe('the secret set: every value idemscan put into the launch', () => {
  it('values of secret-named flags, as --flag=value and as two words', () => {
    const r = new Redactor({
      args: [
        '--token=tokvalue01',
        '--password',
        'pwvalue02',
        '--api-key',
        'keyvalue03',
        '--port',
        '8080',
        '--header',
        'X-Org: orgvalue04',
      ],
    });
    const echoed = r.text('argv: tokvalue01 pwvalue02 keyvalue03 orgvalue04 port 8080');
    expect(echoed).toBe('argv: [REDACTED] [REDACTED] [REDACTED] [REDACTED] port 8080');
    expect(r.args(['--token=tokvalue01', '--password', 'pwvalue02', '--port', '8080'])).toEqual([
      '--token=[REDACTED]',
      '--password',
      '[REDACTED]',
      '--port',
      '8080',
    ]);
    // A flag after a secret-named flag is not its value.
    expect(new Redactor({ args: ['--no-auth', '--port', '8080'] }).text('--port 8080')).toBe('--port 8080');
  });

  it('every ${VAR} value taken from the environment, secret-shaped or not', () => {
    const env = { ORG: 'northwind', REGION: 'eu-west-3' };
    const { entry, fromEnv } = expandFields(
      { args: ['--org', '${ORG}'], env: { R: '${REGION}' }, url: undefined },
      { env },
      'servers[0]',
    );
    expect(entry.args).toEqual(['--org', 'northwind']);
    const r = new Redactor({ ...entry, secrets: fromEnv });
    expect(r.text('org northwind in eu-west-3')).toBe('org [REDACTED] in [REDACTED]');
  });

  it('query values, also when echoed outside the URL, raw and percent-decoded', () => {
    const r = new Redactor({ url: 'https://api.example.test/mcp?sig=sigvalue05&access=readwrite&q=a%2Fb%2Bc1' });
    expect(r.text('sig sigvalue05 access readwrite path a/b+c1 or a%2Fb%2Bc1')).toBe(
      'sig [REDACTED] access [REDACTED] path [REDACTED] or [REDACTED]',
    );
  });

  it('every header value, not only secret-named ones, and the credential after the scheme', () => {
    const r = new Redactor({ headers: { 'X-Org': 'acme-org', Authorization: 'Token tkn-value-06' } });
    expect(r.text('org acme-org with tkn-value-06')).toBe('org [REDACTED] with [REDACTED]');
    const basic = new Redactor({
      headers: { Authorization: `Basic ${Buffer.from('alice11:pw-value-12').toString('base64')}` },
    });
    expect(basic.text('user alice11, password pw-value-12')).toBe('user [REDACTED], password [REDACTED]');
  });

  it('URL user and password, raw and percent-decoded, and the Basic credential they make', () => {
    const r = new Redactor({ url: 'https://userval07:p%40ssval08@example.test/mcp' });
    const basic = Buffer.from('userval07:p@ssval08').toString('base64');
    expect(r.text(`userval07 p%40ssval08 p@ssval08 ${basic}`)).toBe('[REDACTED] [REDACTED] [REDACTED] [REDACTED]');
  });

  it('assignments to secret names in args (`docker run -e DB_PASSWORD=x`, `env API_KEY=x`)', () => {
    const target = {
      args: ['run', '-e', 'DB_PASSWORD=hunter2hunter2', 'env', 'API_KEY=k1', 'MODE=production', 'image'],
    };
    expect(new Redactor(target).args(target.args)).toEqual([
      'run',
      '-e',
      'DB_PASSWORD=[REDACTED]',
      'env',
      'API_KEY=[REDACTED]',
      'MODE=production',
      'image',
    ]);
    expect(new Redactor(target).text('login as hunter2hunter2')).toBe('login as [REDACTED]');
  });

  it('URL fragments (`#access_token=...`): blanked in the URL, their values secrets elsewhere', () => {
    const target = { url: 'https://mcp.example.test/mcp#access_token=fragTOKEN123&state=plain-state' };
    const info = describeTarget({ name: 'f', source: 'f', transport: 'http', ...target });
    expect(info.url).toBe('https://mcp.example.test/mcp#[REDACTED]');
    expect(new Redactor(target).text('token fragTOKEN123 seen')).toBe('token [REDACTED] seen');
    expect(new Redactor({ url: 'https://mcp.example.test/mcp#section' }).text('a section')).toBe('a section');
  });

  it('random-looking URL path segments (a token in the path)', () => {
    const r = new Redactor({ url: 'https://hooks.example.test/mcp/Xy7kQ2pL9wZr4TbN/sse' });
    expect(r.text('at Xy7kQ2pL9wZr4TbN')).toBe('at [REDACTED]');
    expect(r.url('https://hooks.example.test/mcp/Xy7kQ2pL9wZr4TbN/sse')).toBe(
      'https://hooks.example.test/mcp/[REDACTED]/sse',
    );
  });
});

describe('the report pass', () => {
  const secret = 'hdrvalue09';
  const r = new Redactor({ headers: { 'X-Api': secret }, url: 'https://u:pw-secret-10@example.test/mcp' });
  const tool = toolReport;
  const server = serverReport;

  it('redacts key argument names and paths (property names are server text)', () => {
    const out = redactServer(
      server([
        tool({
          verdict: 'keyed',
          keyArguments: [
            {
              name: `${secret}_idempotency_key`,
              path: `$.${secret}_idempotency_key`,
              confidence: 'strong',
              reason: 'name',
            },
            {
              name: 'idempotency_key',
              path: '$["pw-secret-10"].idempotency_key',
              confidence: 'strong',
              reason: 'name',
            },
          ],
        }),
      ]),
      r,
    );
    const text = JSON.stringify(out);
    expect(text).not.toContain(secret);
    expect(text).not.toContain('pw-secret-10');
    expect(out.tools[0]!.keyArguments.map((k) => k.path)).toEqual([
      '$.[REDACTED]_idempotency_key',
      '$["[REDACTED]"].idempotency_key',
    ]);
  });

  it("keeps the report's own keys and enum values even when a secret reads like one", () => {
    const plain = new Redactor({ headers: { 'X-Mode': 'read', 'X-Kind': 'name' } });
    const out = redactServer(
      server(
        [
          tool({
            name: 'read_name',
            annotations: { readOnlyHint: true },
            findings: [{ rule: 'read-name-not-read-only', severity: 'warning', message: 'read' }],
          }),
        ],
        {
          protocol: { era: 'modern', version: '2026-07-28' },
          findings: [{ rule: 'stdout-noise', severity: 'info', message: 'name' }],
        },
      ),
      plain,
    );
    const t = out.tools[0]!;
    expect(t.name).toBe('[REDACTED]_[REDACTED]');
    expect(t.verdict).toBe('read-only');
    expect(t.effective.readOnly).toBe(true);
    expect(t.annotations).toEqual({ '[REDACTED]OnlyHint': true });
    expect(t.findings[0]).toEqual({ rule: 'read-name-not-read-only', severity: 'warning', message: '[REDACTED]' });
    expect(out.name).toBe('s');
    expect(out.protocol?.era).toBe('modern');
  });

  it("redacts the answer's tool names like the tools', and keeps its kind (issue 28)", () => {
    const plain = new Redactor({ headers: { 'X-Mode': 'mixed', 'X-Tool': 'secret_tool_11' } });
    const tools = [
      tool({ name: 'secret_tool_11', verdict: 'unprotected', effective: { ...tool({}).effective, readOnly: false } }),
      tool({ name: 'list' }),
    ];
    const out = redactServer(server(tools, { advice: serverAdvice(server(tools)) }), plain);
    expect(out.advice?.kind).toBe('mixed');
    expect(out.advice?.undeclared.tools).toEqual(['[REDACTED]']);
    expect(JSON.stringify(out)).not.toContain('secret_tool_11');
  });

  it('keeps a "__proto__" key a plain key', () => {
    const out = redactDeep(JSON.parse('{"__proto__": {"polluted": "hdrvalue09"}}') as Record<string, unknown>, (t) =>
      r.text(t),
    );
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":"[REDACTED]"}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('secrets at a cut', () => {
  const secret = 'cutsecret0123456789';
  const r = new Redactor({ headers: { 'X-Key': secret } });

  it('blanks what is left of a secret at the 4,000-character description cut, and keeps the count', () => {
    for (const kept of [4, 9, secret.length - 1]) {
      const raw = 'd'.repeat(DESCRIPTION_LIMIT - kept) + secret + 'e'.repeat(500);
      const cut = boundedDescription(raw);
      const out = r.text(cut);
      expect(leftovers(out, secret)).toEqual([]);
      expect(out).toBe(
        `${'d'.repeat(DESCRIPTION_LIMIT - kept)}[REDACTED]… [${raw.length - DESCRIPTION_LIMIT} more characters]`,
      );
    }
  });

  it('at any cut mark inside a message, at the end of a text, and at the start of a tail', () => {
    const message = `initialize failed: -1 ${bounded(`bad key ${secret}`, 14)} (before that, ${bounded('x', 5)})`;
    expect(leftovers(r.text(message), secret)).toEqual([]);
    expect(r.text(`ends with ${secret.slice(0, 6)}`)).toBe('ends with [REDACTED]');
    const tail = `stderr ends: ${boundedTail(`${secret} panic`, 14)}`;
    expect(r.text(tail)).toBe('stderr ends: [11 earlier characters] …[REDACTED] panic');
  });

  it('blanks the start of a token shape at a cut', () => {
    for (const token of [
      'ghp_abcdefghijklmnopqrstuvwxyz0123',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig',
      'sk-proj-abcdefghijklmnop',
    ]) {
      const out = new Redactor({}).text(bounded(`see ${token}`, 4 + 6));
      expect(out).toMatch(/^see \[REDACTED\]… \[\d+ more characters\]$/);
    }
    expect(new Redactor({}).text(bounded('auth: Bearer abcdefghijklmnop', 16))).toBe(
      'auth: Bearer [REDACTED]… [13 more characters]',
    );
    // Ordinary words at a cut stay.
    expect(new Redactor({}).text(bounded('the quick brown fox', 9))).toBe('the quick… [10 more characters]');
  });

  it('a short part (under 4 characters) is not a secret: words ending like one stay', () => {
    expect(r.text(`a ${bounded(`cut${secret}`, 6)}`)).toBe('a cutcut… [16 more characters]');
  });
});

describe('ordinary values stay readable', () => {
  it('a word that is a secret is blanked whole, never as the end of another word; booleans are never secrets', () => {
    const r = new Redactor({ env: { AUTH_REQUIRED: 'true' }, secrets: ['production'] });
    expect(r.text('deploy_to_prod')).toBe('deploy_to_prod');
    expect(r.text('deploys to production')).toBe('deploys to [REDACTED]');
    expect(r.text('Returns true if the user exists')).toBe('Returns true if the user exists');
  });
});
