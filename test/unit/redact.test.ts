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
});
