/** The Markdown and SARIF reporters on hand-made reports: escaping, locations, schema validity. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mdText } from '../../src/render/markdown-text.js';
import { markdownReporter } from '../../src/render/markdown.js';
import { sarifReporter, toSarif } from '../../src/render/sarif.js';
import type { ServerReport } from '../../src/model/schema.js';
import { sarifValidator } from '../helpers/sarif.js';
import { okServer, reportOf } from '../helpers/reports.js';

const evil = okServer(
  'evil|<b>srv</b>',
  [
    { name: 'a|b', annotations: { readOnlyHint: true } },
    { name: '<script>alert(1)</script>' },
    { name: 'get_*x*_[y](z)', annotations: { destructiveHint: false } },
    { name: 'evil\u001b[31mred\rname\nnext' },
  ],
  { serverInfo: { name: 'x', version: '1.0 | <i>' } },
);

describe('markdown', () => {
  it('escapes table separators, HTML, Markdown emphasis and links, and control characters', () => {
    expect(mdText('a|b')).toBe('a\\|b');
    expect(mdText('<script>&')).toBe('&lt;script&gt;&amp;');
    expect(mdText('*x* _y_ [l](u) `c` ~s~ \\')).toBe('\\*x\\* \\_y\\_ \\[l\\](u) \\`c\\` \\~s\\~ \\\\');
    expect(mdText('a\nb\u001b')).toBe('a\\\\u000ab\\\\u001b');
  });

  it('keeps every table row at its column count whatever the server sent', () => {
    const md = markdownReporter.render(reportOf([evil]));
    expect(md).not.toMatch(/<script|<b>|<i>/);
    // eslint-disable-next-line no-control-regex
    expect(md).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    for (const table of md.split('\n\n').filter((b) => b.startsWith('|'))) {
      const cells = table
        .split('\n')
        .filter(Boolean)
        .map((line) => line.replace(/\\\|/g, '').split('|').length);
      expect(new Set(cells).size, table).toBe(1);
    }
  });

  it('summarises per server and overall, and lists failed servers', () => {
    const failed: ServerReport = {
      ...okServer('down', []),
      status: 'failed',
      failure: { kind: 'timeout', message: 'no answer' },
    };
    const md = markdownReporter.render(reportOf([evil, failed]));
    expect(md).toContain('| evil\\|&lt;b&gt;srv&lt;/b&gt; | 1.0 \\| &lt;i&gt; | 4 | 3 | 0 | 2 | 1 |');
    expect(md).toContain('**all 1 server**');
    expect(md).toContain('- down: timeout: no answer');
    // No dead links: a rule links to its page only when --rules-base-url says where the pages are.
    expect(md).toContain('| read-name-not-read-only |');
    // Nor to the methodology: package.json names no repository, so the report says where the file is.
    expect(md.match(/\]\(http[^)]*\)/g)).toBeNull();
    expect(md).toContain("docs/METHODOLOGY.md in idemscan's package or repository");
    const linked = markdownReporter.render(reportOf([evil]), {
      rulesBaseUrl: 'https://example.org/idemscan/docs/rules',
    });
    expect(linked).toContain(
      '[read-name-not-read-only](https://example.org/idemscan/docs/rules/read-name-not-read-only.md)',
    );
  });
});

describe('sarif', () => {
  const validate = sarifValidator();

  it('is valid SARIF 2.1.0, with a rule for every finding and levels mapped', () => {
    const failed: ServerReport = {
      ...okServer('down', []),
      status: 'failed',
      failure: { kind: 'exited', message: 'exit 1' },
    };
    const log = JSON.parse(sarifReporter.render(reportOf([evil, failed])));
    expect(validate(log), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const run = log.runs[0];
    const ruleIds = run.tool.driver.rules.map((r: { id: string }) => r.id);
    for (const r of run.results) {
      expect(ruleIds[r.ruleIndex]).toBe(r.ruleId);
      expect(['error', 'warning', 'note']).toContain(r.level);
    }
    expect(run.tool.driver.rules.find((r: { id: string }) => r.id === 'uniform-hints').defaultConfiguration.level).toBe(
      'note',
    );
    expect(run.invocations[0].toolExecutionNotifications[0].message.text).toContain('down: not scanned: exited');
  });

  it("carries each rule's full page as help, and helpUri only with --rules-base-url", () => {
    const plain = toSarif(reportOf([evil]), '/repo');
    const driver = plain.runs[0]!.tool.driver;
    expect(driver.informationUri).toBeUndefined();
    for (const rule of driver.rules!) {
      expect(rule.helpUri, rule.id).toBeUndefined();
      expect(rule.help!.markdown, rule.id).toContain(`# ${rule.id}`);
      expect(rule.help!.markdown, rule.id).toContain('## How to fix it');
      expect(rule.help!.text, rule.id).not.toContain('](');
    }
    // Relative links between pages become plain text without a base, absolute links with one.
    const missing = driver.rules!.find((r) => r.id === 'missing-annotations')!;
    expect(missing.help!.markdown).not.toContain('](read-name-not-read-only.md)');
    const based = toSarif(reportOf([evil]), '/repo', { rulesBaseUrl: 'https://example.org/rules/' });
    expect(validate(JSON.parse(JSON.stringify(based))), JSON.stringify(validate.errors, null, 2)).toBe(true);
    const rule = based.runs[0]!.tool.driver.rules!.find((r) => r.id === 'missing-annotations')!;
    expect(rule.helpUri).toBe('https://example.org/rules/missing-annotations.md');
    expect(rule.help!.markdown).toContain(
      '[read-name-not-read-only](https://example.org/rules/read-name-not-read-only.md)',
    );
  });

  it('names server and tool as a logical location and always has a physical one', () => {
    const log = toSarif(reportOf([evil]), '/repo');
    const result = log.runs[0]!.results!.find((r) => r.ruleId === 'missing-annotations')!;
    expect(result.locations![0]!.logicalLocations).toEqual([
      {
        name: '<script>alert(1)</script>',
        fullyQualifiedName: 'evil|<b>srv</b>/<script>alert(1)</script>',
        kind: 'function',
      },
    ]);
    expect(result.locations![0]!.physicalLocation!.artifactLocation!.uri).toBe(
      'mcp-server/evil%7C%3Cb%3Esrv%3C%2Fb%3E',
    );
    expect(result.partialFingerprints!['idemscanFinding/v1']).toMatch(/^[0-9a-f]{32}$/);
  });

  it('points at the target file, relative to the working directory when inside it, else the URL', () => {
    const inRepo = okServer('s', [{ name: 'x' }], {
      target: { transport: 'stdio', source: 'targets/mine.json#servers[0]' },
    });
    const outside = okServer('t', [{ name: 'x' }], {
      target: { transport: 'stdio', source: '/etc/mcp.json#mcpServers.t' },
    });
    const remote = okServer('u', [{ name: 'x' }], {
      target: { transport: 'http', url: 'https://mcp.example.com/mcp', source: 'command line' },
    });
    const log = toSarif(reportOf([inRepo, outside, remote]), '/repo');
    const uris = log.runs[0]!.results!.map((r) => r.locations![0]!.physicalLocation!.artifactLocation);
    expect(uris).toEqual([
      { uri: 'targets/mine.json', uriBaseId: '%SRCROOT%' },
      { uri: 'file:///etc/mcp.json' },
      { uri: 'https://mcp.example.com/mcp' },
    ]);
    expect(log.runs[0]!.originalUriBaseIds).toEqual({ '%SRCROOT%': { uri: 'file:///repo/' } });
    expect(validate(log)).toBe(true);
  });

  it('gives every result a region: the line that alone quotes the tool or server in a file under the root, else 1', () => {
    const repo = mkdtempSync(path.join(os.tmpdir(), 'idemscan-sarif-line-'));
    mkdirSync(path.join(repo, 'targets'));
    const targets = ['{ "servers": [', '  { "name": "dup" },', '  { "name": "shop", "args": ["dup"] }', '] }'];
    writeFileSync(path.join(repo, 'targets', 'mine.json'), targets.join('\n'));
    mkdirSync(path.join(repo, 'src'));
    writeFileSync(path.join(repo, 'src', 'server.ts'), "// shop\n\nserver.tool('send_email', {}, send);\n");
    const at = (source: string, name: string) => ({ target: { transport: 'stdio' as const, source }, name });
    const report = reportOf([
      okServer('shop', [{ name: 'send_email' }], at('targets/mine.json#servers[1]', 'shop')),
      okServer('dup', [{ name: 'x' }], at('targets/mine.json#servers[0]', 'dup')),
      okServer('gone', [{ name: 'x' }], at('targets/missing.json', 'gone')),
      okServer('remote', [{ name: 'x' }], { target: { transport: 'http', url: 'https://mcp.example.com/mcp' } }),
    ]);
    const lines = (log: ReturnType<typeof toSarif>) =>
      log.runs[0]!.results!.map((r) => [r.properties!.server, r.locations![0]!.physicalLocation!.region!.startLine]);
    const log = toSarif(report, repo);
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    // The server's own entry; a name on two lines, a missing file or a URL: line 1, never a guess.
    expect(new Set(lines(log).map(String))).toEqual(new Set(['shop,3', 'dup,1', 'gone,1', 'remote,1']));
    // Under --sarif-uri the server's source: the line that registers the tool.
    const mapped = toSarif(report, repo, { sarifUris: { byName: new Map([['shop', 'src/server.ts']]) } });
    const shop = lines(mapped).filter(([s]) => s === 'shop');
    expect(shop.length).toBeGreaterThan(0);
    expect(shop.every(([, line]) => line === 3)).toBe(true);
    expect(validate(mapped)).toBe(true);
  });
});
