/**
 * The per-server answer (model/advice.ts, issue 28): computed once from the verdicts, stored in
 * the report, filled for reports written before it, and worded the same in every format.
 */
import { describe, expect, it } from 'vitest';
import { ADVICE_NAMES, serverAdvice } from '../../src/model/advice.js';
import { parseReport } from '../../src/compare/read.js';
import { serverReport as buildServer } from '../../src/app/scan/server-report.js';
import { advicePhrases, answerMeta, metaText } from '../../src/render/advice.js';
import { answerLines, answersFold } from '../../src/render/answers.js';
import { markdownReporter } from '../../src/render/markdown.js';
import { renderPage } from '../../src/render/html/page.js';
import { okServer, reportOf } from '../helpers/reports.js';
import stringWidth from 'string-width';

const KEY = { type: 'object', properties: { idempotency_key: { type: 'string' } } };
const shop = () =>
  okServer('shop', [
    { name: 'list_orders', annotations: { readOnlyHint: true } },
    { name: 'get_order', annotations: { readOnlyHint: true } },
    { name: 'create_order', inputSchema: KEY },
    { name: 'set_status', annotations: { readOnlyHint: false, idempotentHint: true } },
    { name: 'send_sms', annotations: { readOnlyHint: false, destructiveHint: true } },
    { name: 'search' },
  ]);
const plain = { name: (t: string) => t, code: (t: string) => `\`${t}\``, names: 5 };

describe('serverAdvice', () => {
  it('groups the tools the way a client acts on them, declared writes apart from tools that declare nothing', () => {
    const a = serverAdvice(shop())!;
    expect(a.kind).toBe('mixed');
    expect(a.retry).toEqual({ count: 2, tools: ['list_orders', 'get_order'] });
    expect(a.withKey).toEqual({
      count: 1,
      sameKey: '$.idempotency_key',
      tools: [{ tool: 'create_order', key: '$.idempotency_key' }],
    });
    expect(a.ifTrusted.tools).toEqual(['set_status']);
    expect(a.ask.tools).toEqual(['send_sms']);
    expect(a.undeclared.tools).toEqual(['search']);
  });

  it('says what each server is at a glance, trust included', () => {
    const kind = (tools: Record<string, unknown>[], trusted?: boolean) =>
      serverAdvice({ ...okServer('s', tools), trusted })!.kind;
    expect(kind([{ name: 'r', annotations: { readOnlyHint: true } }])).toBe('retry-freely');
    expect(kind([{ name: 'k', inputSchema: KEY }])).toBe('retry-with-key');
    const hinted = [{ name: 'i', annotations: { readOnlyHint: false, idempotentHint: true } }];
    expect(kind(hinted)).toBe('retry-if-trusted');
    expect(kind(hinted, true)).toBe('retry-freely');
    expect(kind([{ name: 'u' }])).toBe('ask-first');
    expect(kind([])).toBe('no-tools');
    expect(serverAdvice({ status: 'failed', tools: [] })).toBeUndefined();
  });

  it('keeps counts whole and names bounded', () => {
    const many = Array.from({ length: ADVICE_NAMES + 7 }, (_, i) => ({ name: `w${i}` }));
    const a = serverAdvice(okServer('big', many))!;
    expect(a.undeclared.count).toBe(ADVICE_NAMES + 7);
    expect(a.undeclared.tools).toHaveLength(ADVICE_NAMES);
  });

  it('says "the same key" only when every keyed tool shares it, the ones past the names included', () => {
    const keyed = (name: string, key: string) => ({
      name,
      inputSchema: { type: 'object', properties: { [key]: { type: 'string' } } },
    });
    const same = Array.from({ length: ADVICE_NAMES + 3 }, (_, i) => keyed(`k${i}`, 'idempotency_key'));
    expect(serverAdvice(okServer('same', same))!.withKey.sameKey).toBe('$.idempotency_key');
    // The one tool with another key is past the names the report keeps: the sentence must not say "the same key".
    const other = [...same, keyed('last', 'client_token')];
    const server = okServer('other', other);
    const a = server.advice!;
    expect(a.withKey.tools.map((t) => t.tool)).not.toContain('last');
    expect(a.withKey.sameKey).toBeUndefined();
    const words = { name: (s: string) => s, code: (s: string) => s, names: 3 };
    expect(advicePhrases(server, words).join('; ')).toMatch(/^retry with the same key: k0 \(\$\.idempotency_key\)/);
  });

  it('is set by the one server-report builder on scanned servers only', () => {
    const s = shop();
    const built = buildServer('shop', { status: 'ok', target: s.target, durationMs: 1, tools: s.tools });
    expect(built.advice).toEqual(serverAdvice(s));
    expect(buildServer('x', { status: 'failed', target: s.target, durationMs: 1 }).advice).toBeUndefined();
  });
});

describe('a report written before the answer', () => {
  it('gets it, and the undeclared count, when read', () => {
    const fresh = reportOf([shop()]);
    expect(fresh.summary.unprotectedUndeclared).toBe(1);
    const old = JSON.parse(JSON.stringify(fresh));
    delete old.summary.unprotectedUndeclared;
    delete old.servers[0].advice;
    const read = parseReport(JSON.stringify(old), 'old.json');
    expect(read.servers[0]!.advice).toEqual(fresh.servers[0]!.advice);
    expect(read.summary.unprotectedUndeclared).toBe(1);
  });
});

describe('a saved report whose derived fields were edited', () => {
  const evil = () =>
    okServer('evil', [{ name: 'send_money', annotations: { destructiveHint: true } }, { name: 'wipe_disk' }]);
  const none = { count: 0, tools: [] };
  const forged = () => {
    const report = reportOf([evil(), okServer('gone', [], { status: 'failed', advice: shop().advice })]);
    const retry = { count: 2, tools: ['send_money', 'wipe_disk'] };
    const advice = {
      kind: 'retry-freely',
      retry,
      withKey: none,
      ifTrusted: none,
      ask: none,
      undeclared: none,
    } as const;
    report.servers[0]!.advice = advice;
    report.summary = { ...report.summary, readOnly: 2, unprotected: 0, unprotectedUndeclared: 0 };
    report.summary.probe = { retrySafe: 2, repeatedEffect: 0, inconclusive: 0, failed: 0, notProbed: 0 };
    return JSON.stringify(report);
  };

  it('gets them again from its verdicts when read: the advice, none for a failed server, the summary', () => {
    const read = parseReport(forged(), 'forged.json');
    const honest = reportOf([evil(), okServer('gone', [], { status: 'failed', advice: undefined })]);
    expect(read.servers[0]!.advice).toEqual(serverAdvice(evil()));
    expect(read.servers[0]!.advice!.kind).toBe('ask-first');
    expect(read.servers[1]).not.toHaveProperty('advice');
    expect(read.summary).toEqual(honest.summary);
    expect(read.summary.probe).toBeUndefined();
    const md = markdownReporter.render(read);
    expect(md).not.toContain('every tool is read-only');
    expect(md).toContain('- **evil**: ask before send\\_money; ask before wipe\\_disk too (no hints declared)');
  });

  it('keeps a report idemscan wrote as it was, key order included', () => {
    const written = JSON.stringify(reportOf([shop(), okServer('gone', [], { status: 'failed', advice: undefined })]));
    expect(JSON.stringify(parseReport(written, 'r.json'))).toBe(written);
  });
});

describe('the answer in words', () => {
  it('reads as the issue asks, every group in the order a client acts on it', () => {
    expect(advicePhrases(shop(), plain)).toEqual([
      'retry the 2 reads',
      'retry create_order with the same key (`$.idempotency_key`)',
      'retry set_status only if you trust the server',
      'ask before send_sms',
      'ask before search too (no hints declared)',
    ]);
  });

  it('cuts long lists with +N more, and escapes server text in every format', () => {
    const evil = okServer('evil', [
      { name: '<img src=x>\u001b[31m' },
      ...Array.from({ length: 8 }, (_, i) => ({ name: `t${i}` })),
    ]);
    const report = reportOf([evil]);
    const html = renderPage(report);
    const answers = html.slice(html.indexOf('id="answers"'), html.indexOf('</section>', html.indexOf('id="answers"')));
    expect(answers).toContain('&lt;img src=x&gt;');
    expect(answers).not.toContain('<img');
    expect(answers).toContain('+4 more (no hints declared)');
    expect(markdownReporter.render(report)).toContain('- **evil**: ask before &lt;img src=x&gt;\\\\u001b\\[31m, t0');
    const fold = answersFold();
    fold.add(evil);
    const lines = answerLines(fold.result(), 60);
    expect(lines.join('\n')).not.toContain('\u001b');
    expect(lines.join(' ').replace(/ +/g, ' ')).toContain('+6 more (no hints declared)');
    for (const l of lines) expect(stringWidth(l)).toBeLessThanOrEqual(60);
  });

  it('names the version scanned, the one idemscan resolved for an unpinned entry, and the clients', () => {
    const s = okServer('fs', [], {
      serverInfo: { name: 'fs', version: '0.6.2' },
      target: {
        transport: 'stdio',
        npm: '@scope/fs@0.6.2',
        launcher: { runner: 'npx', spec: '@scope/fs@latest', resolved: true },
        listedBy: [
          { client: 'Claude Desktop', file: '/h/a.json' },
          { client: 'Cursor', file: '/h/b.json' },
          { client: 'Cursor', file: '/p/.cursor/mcp.json' },
        ],
      },
    });
    expect(metaText(answerMeta(s), plain)).toBe(
      ' 0.6.2 (resolved for @scope/fs@latest), listed by Claude Desktop, Cursor',
    );
    const pinned = { ...s, serverInfo: undefined, target: { transport: 'stdio' as const, npm: 'pkg@1.2.3' } };
    expect(metaText(answerMeta(pinned), plain)).toBe(' 1.2.3');
    // The package version idemscan ran is the version scanned (the dataset's and the server pages'
    // too); what the server says of itself follows when it differs (the reference filesystem server
    // 2026.8.31 calls itself 0.2.0).
    const told = { ...pinned, serverInfo: { name: 'fs', version: '0.2.0' } };
    expect(metaText(answerMeta(told), plain)).toBe(' 1.2.3 (the server reports 0.2.0)');
    const command = { ...told, target: { transport: 'stdio' as const, command: 'node' } };
    expect(metaText(answerMeta(command), plain)).toBe(' 0.2.0');
  });
});
