/** npm's failure dumps condensed to one line: a missing package or version said plainly, never the debug-log path. */
import { describe, expect, it } from 'vitest';
import { npmErrorText, npmLines } from '../../src/launch/npm-errors.js';

/** As npm 11 prints them (`npm install --loglevel=error`), copied from real runs. */
const E404 = `npm error code E404
npm error 404 Not Found - GET https://registry.npmjs.org/idemscan-no-such-package-zzqx
npm error 404
npm error 404  The requested resource 'idemscan-no-such-package-zzqx@*' could not be found or you do not have permission to access it.
npm error 404
npm error 404 Note that you can also install from a
npm error 404 tarball, folder, http url, or git url.
npm error A complete log of this run can be found in: /root/.npm/_logs/2026-12-04T17_46_16_384Z-debug-0.log
`;

const ETARGET = `npm error code ETARGET
npm error notarget No matching version found for is-number@99.0.0.
npm error notarget In most cases you or one of your dependencies are requesting a package version that doesn't exist.
npm error A complete log of this run can be found in: /root/.npm/_logs/2026-12-04T17_46_16_983Z-debug-0.log
`;

const ENOTFOUND = `npm error code ENOTFOUND
npm error syscall getaddrinfo
npm error errno ENOTFOUND
npm error network request to https://github.com/stainless-api/jq-web/releases/download/v0.8.8/jq-web.tar.gz failed, reason: getaddrinfo ENOTFOUND github.com
npm error network This is a problem related to network connectivity.
npm error network In most cases you are behind a proxy or have bad network settings.
npm error network
npm error network If you are behind a proxy, please make sure that the
npm error network 'proxy' config is set properly.  See: 'npm help config'
npm error A complete log of this run can be found in: /root/.npm/_logs/2026-12-02T16_41_54_667Z-debug-0.log
`;

describe('npmErrorText', () => {
  it('says a 404 as a package npm does not have, without the dump or the log path', () => {
    expect(npmErrorText(E404)).toBe('npm has no package "idemscan-no-such-package-zzqx" (404 from the registry)');
  });

  it('names a scoped package from the 404 URL when npm gives no resource line', () => {
    const scoped =
      'npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fnope - Not found\n';
    expect(npmErrorText(scoped)).toBe('npm has no package "@acme/nope" (404 from the registry)');
  });

  it('says ETARGET as a version npm does not have', () => {
    expect(npmErrorText(ETARGET)).toBe('npm has no version 99.0.0 of "is-number"');
    expect(npmErrorText(ETARGET.replace('is-number@99.0.0', '@acme/tool@^7'))).toBe(
      'npm has no version ^7 of "@acme/tool"',
    );
  });

  it("keeps another error's first reasons on one line, without codes or the log path", () => {
    const text = npmErrorText(ENOTFOUND);
    expect(text).toBe(
      'request to https://github.com/stainless-api/jq-web/releases/download/v0.8.8/jq-web.tar.gz failed, reason: getaddrinfo ENOTFOUND github.com; ' +
        'This is a problem related to network connectivity; In most cases you are behind a proxy or have bad network settings',
    );
  });

  it('never shows the debug-log path, even when it is all npm said', () => {
    const only = 'npm error A complete log of this run can be found in: /work/cache/_logs/2026-debug-0.log\n';
    const text = npmErrorText(only);
    expect(text).not.toContain('_logs/');
    expect(text).toMatch(/^npm failed without an error message/);
    for (const dump of [E404, ETARGET, ENOTFOUND]) expect(npmErrorText(dump)).not.toContain('debug-0.log');
  });

  it('is bounded, whatever npm printed', () => {
    const flood = `npm error ${'x'.repeat(100_000)}\n`.repeat(50);
    expect(npmErrorText(flood).length).toBeLessThan(600);
    expect(
      npmErrorText(`npm error code E404\nnpm error 404 Not Found - GET https://r.example/${'n'.repeat(10_000)}`).length,
    ).toBeLessThan(400);
  });

  it('falls back to what was printed when npm did not (npm itself would not start)', () => {
    expect(npmErrorText('Command failed with ENOENT: npm install x\nspawn npm ENOENT')).toBe(
      'Command failed with ENOENT: npm install x; spawn npm ENOENT',
    );
  });
});

describe('npmLines', () => {
  it('drops the debug-log line and blank lines, keeps the rest in order', () => {
    expect(
      npmLines(`gyp ERR! build error\n\nnpm error A complete log of this run can be found in: /x/_logs/y.log\n`),
    ).toEqual(['gyp ERR! build error']);
  });
});

describe('pnpm output', () => {
  it('gives the error after its progress and retry warnings, never the project path', () => {
    const progress = Array.from({ length: 3000 }, (_, i) => `Progress: resolved ${i}, reused 0, downloaded 0, added 0`);
    const output = [
      ...progress,
      '\u2009WARN\u2009 GET https://registry.npmjs.org/x error (ETIMEDOUT). Will retry in 10 seconds. 2 retries left.',
      '\u2009ERROR\u2009 Command failed with exit code 128: git ls-remote git+ssh://git@github.com/o/r.git HEAD',
      '',
      'This error happened while installing a direct dependency of /home/me/.cache/idemscan/npm/.parts/x',
    ].join('\n');
    expect(npmErrorText(output)).toBe(
      'Command failed with exit code 128: git ls-remote git+ssh://git@github.com/o/r.git HEAD',
    );
  });

  it('leaves out the frames of a stack it prints, which name paths of this machine', () => {
    const output = [
      ' ENOTFOUND\u2009 request to https://cdn.example.com/x-1.0.0.tgz failed, reason: getaddrinfo ENOTFOUND cdn.example.com',
      '',
      'FetchError: request to https://cdn.example.com/x-1.0.0.tgz failed',
      '    at ClientRequest.<anonymous> (/home/me/idemscan/node_modules/pnpm/dist/pnpm.cjs:39562:18)',
      '    at ClientRequest.emit (node:events:517:28)',
    ].join('\n');
    const said = npmErrorText(output);
    expect(said).toMatch(/^ENOTFOUND\s+request to https:\/\/cdn\.example\.com\/x-1\.0\.0\.tgz failed/);
    expect(said).not.toMatch(/home|node:events|pnpm\.cjs/);
  });

  it('says a 404 and a missing version as for npm', () => {
    expect(npmErrorText(' ERR_PNPM_FETCH_404\u2009 GET https://registry.npmjs.org/ghost-zz: Not Found - 404')).toBe(
      'npm has no package "ghost-zz" (404 from the registry)',
    );
    expect(
      npmErrorText(
        ' ERR_PNPM_NO_MATCHING_VERSION\u2009 No matching version found for is-number@99.0.0 while fetching it',
      ),
    ).toBe('npm has no version 99.0.0 of "is-number"');
  });
});
