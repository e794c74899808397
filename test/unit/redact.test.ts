import { describe, expect, it } from 'vitest';
import { describeTarget, Redactor } from '../../src/targets/redact.js';

describe('redaction', () => {
  it('keeps env and header names, never their values', () => {
    const info = describeTarget({
      name: 'x', source: 'f', transport: 'http', url: 'https://api.example.test/mcp?token=s3cr3t-value&mode=x',
      headers: { Authorization: 'Bearer abcdefghijklmnop' }, env: { API_TOKEN: 'zzz-secret-zzz' },
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
    const out = r.args(['--api-key', 'abc123', '--token=xyz789', 'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      'postgresql://user:pw-secret@db/x', 'plain', 'value-hunter2-long']);
    expect(out.join(' ')).not.toMatch(/abc123|xyz789|ghp_abc|pw-secret|hunter2-long/);
    expect(out).toContain('plain');
  });

  it('cleans stderr of the values it was given', () => {
    const r = new Redactor({ env: { SLACK_BOT_TOKEN: 'xoxb-1234-abcd' } });
    expect(r.text('auth failed for xoxb-1234-abcd')).toBe('auth failed for [REDACTED]');
  });

  it('redacts a password in a database URL given as an argument', () => {
    const info = describeTarget({ name: 'pg', source: 'f', transport: 'stdio', command: 'node', args: ['s.js', 'postgresql://app:pa55w0rd-x@db.internal/prod'] });
    expect(JSON.stringify(info)).not.toContain('pa55w0rd-x');
  });

  it('treats values as secrets by their name or their shape, and leaves ordinary words alone', () => {
    const r = new Redactor({
      env: { NODE_ENV: 'production', ROOT: '/tmp/x', ACCEPT: 'application/json', MYSQL_USER: 'idemscan', DB_PASS: 'hunter22', OPAQUE: 'zq7Xvalue99abc' },
      headers: { Authorization: 'Bearer abc123def456', 'X-Mode': 'fast' },
    });
    const out = r.text('Deploy to production from /tmp/x as application/json for idemscan with a Bearer token: hunter22 zq7Xvalue99abc abc123def456 fast');
    expect(out).toBe('Deploy to production from /tmp/x as application/json for idemscan with a Bearer token: [REDACTED] [REDACTED] [REDACTED] fast');
  });

  it('redacts the Basic credentials derived from a URL', () => {
    const r = new Redactor({ url: 'https://bob:s3cret-pw@example.test/mcp' });
    expect(r.text(`got ${Buffer.from('bob:s3cret-pw').toString('base64')} and s3cret-pw`)).toBe('got [REDACTED] and [REDACTED]');
  });
});
