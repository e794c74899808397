/**
 * Every generated report states its method and limits and links docs/METHODOLOGY.md; the Markdown
 * lists skipped targets with their reasons as the HTML does; the headline tells a client's user
 * what to do about unprotected tools.
 */
import { describe, expect, it } from 'vitest';
import { renderPage } from '../../src/render/html/page.js';
import { markdownReporter } from '../../src/render/markdown.js';
import { METHODOLOGY_PLACE, methodologyUrl } from '../../src/render/method.js';
import { repositoryUrl } from '../../src/model/version.js';
import { countVerdicts, retryAdvice } from '../../src/model/verdicts.js';
import { okServer, reportOf } from '../helpers/reports.js';

const report = reportOf([okServer('shop', [{ name: 'pay' }, { name: 'get', annotations: { readOnlyHint: true } }])], {
  skipped: [
    { name: 'needs|docker', source: 'targets.json', reason: 'needs <b>Docker</b> at start' },
    { name: 'node22', source: 'targets.json', reason: 'Node 22 only' },
  ],
});
// package.json names no repository (nobody knows the owner): the reports link no page, and say where the file is.
const PLACE = "docs/METHODOLOGY.md in idemscan's package or repository";

describe('method and limits', () => {
  it('the Markdown says what is read, that hints are untrusted, what unprotected means, and where the methodology is', () => {
    const md = markdownReporter.render(report);
    const section = md.slice(md.indexOf('## Method and limits'), md.indexOf('## Servers'));
    expect(section).toContain('No tool is ever called');
    expect(section).toContain('Hints are untrusted');
    expect(section).toContain('"Unprotected" means');
    expect(section).toContain(`How the census is made and what it does not measure: ${PLACE}.`);
    expect(section).not.toMatch(/\]\(http/);
  });

  it('the HTML has the same section, saying where the methodology is without a link', () => {
    const html = renderPage(report);
    const section = html.slice(
      html.indexOf('<section id="method"'),
      html.indexOf('</section>', html.indexOf('<section id="method"')),
    );
    expect(section).toContain('Method and limits');
    expect(section).toContain('No tool is ever called (<code>tools/call</code> is never sent)');
    expect(section).toContain(
      `How the census is made and what it does not measure: docs/METHODOLOGY.md in idemscan&#39;s`,
    );
    expect(section).not.toContain('<a href');
  });

  it('links the methodology beside the rule pages of --rules-base-url when it names a rules directory', () => {
    expect(methodologyUrl('https://github.com/acme/idemscan/blob/v1/docs/rules/')).toBe(
      'https://github.com/acme/idemscan/blob/v1/docs/METHODOLOGY.md',
    );
    expect(methodologyUrl('https://example.org/pages')).toBeUndefined();
    expect(METHODOLOGY_PLACE).toBe(PLACE);
    expect(markdownReporter.render(report, { rulesBaseUrl: 'https://x.example/docs/rules' })).toContain(
      '(https://x.example/docs/METHODOLOGY.md)',
    );
  });
});

describe("the methodology's page, by package.json's repository", () => {
  it('links a real repository, in each of the forms npm accepts', () => {
    const page = 'https://github.com/acme/idemscan/blob/main/docs/METHODOLOGY.md';
    for (const repository of [
      { type: 'git', url: 'git+https://github.com/acme/idemscan.git' },
      'https://github.com/acme/idemscan',
      'github:acme/idemscan',
      'acme/idemscan',
      'git@github.com:acme/idemscan.git',
    ]) {
      expect(repositoryUrl(repository), JSON.stringify(repository)).toBe('https://github.com/acme/idemscan');
      expect(methodologyUrl(undefined, repositoryUrl(repository))).toBe(page);
    }
    expect(repositoryUrl({ url: 'https://gitlab.example.net/team/idemscan' })).toBeUndefined();
    expect(repositoryUrl({ url: 'https://git.acme.dev/team/idemscan.git' })).toBe('https://git.acme.dev/team/idemscan');
  });

  it('links nothing for no repository, a placeholder owner, or a URL that is not https', () => {
    for (const repository of [
      undefined,
      { type: 'git' },
      { url: 'git+https://github.com/OWNER/idemscan.git' },
      'https://github.com/<owner>/idemscan',
      'https://github.com/%3Cowner%3E/idemscan',
      'https://github.com/your-org/idemscan',
      'http://github.com/acme/idemscan',
      'https://github.com/acme',
      'https://user:pw@github.com/acme/idemscan',
      'file:///tmp/idemscan',
    ]) {
      expect(repositoryUrl(repository), JSON.stringify(repository)).toBeUndefined();
      expect(methodologyUrl(undefined, repositoryUrl(repository))).toBeUndefined();
    }
  });
});

describe('skipped targets in Markdown', () => {
  it('lists each with its source and reason, escaped', () => {
    const md = markdownReporter.render(report);
    expect(md).toContain('## Skipped targets (2)');
    expect(md).toContain('| needs\\|docker | targets.json | needs &lt;b&gt;Docker&lt;/b&gt; at start |');
    expect(md).toContain('| node22 | targets.json | Node 22 only |');
    expect(markdownReporter.render(reportOf([]))).not.toContain('Skipped targets');
  });
});

describe('what to do with unprotected tools', () => {
  it('follows the headline in Markdown and HTML, and is absent when nothing is unprotected', () => {
    const advice =
      'Do not let a client retry the unprotected tool automatically: ask the user first, and prefer keyed tools, sending the same key on a retry.';
    expect(markdownReporter.render(report)).toContain(`\n\n${advice}\n`);
    expect(renderPage(report)).toContain(`<strong class="advice">${advice}</strong>`);
    expect(retryAdvice(countVerdicts([{ verdict: 'unprotected' }, { verdict: 'unprotected' }]))).toContain(
      'the 2 unprotected tools',
    );
    expect(retryAdvice(countVerdicts([{ verdict: 'keyed' }, { verdict: 'read-only' }]))).toBeUndefined();
  });
});

describe('method and limits under --writable', () => {
  const writable = reportOf([okServer('memory', [{ name: 'create' }])], {
    options: { sandbox: true, writable: ['/srv/scratch', '/srv/`<img src=x onerror=alert(1)>`\n- injected'] },
  });

  it('Markdown and HTML name the paths the servers could write, each in one code span, their markup inert', () => {
    const md = markdownReporter.render(writable);
    const section = md.slice(md.indexOf('## Method and limits'), md.indexOf('## Servers'));
    expect(section).toContain(
      'the servers could write to `/srv/scratch`, `/srv/<img src=x onerror=alert(1)>- injected`',
    );
    expect(section).not.toContain('\n- injected');
    const html = renderPage(writable);
    expect(html).toContain('<code>/srv/scratch</code>');
    expect(html).toContain('<code>/srv/&lt;img src=x onerror=alert(1)&gt;- injected</code>');
    expect(html).not.toContain('<img src=x');
  });

  it('says nothing of it without --writable', () => {
    expect(markdownReporter.render(report)).not.toContain('--writable');
  });
});
