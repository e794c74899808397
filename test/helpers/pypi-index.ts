/**
 * A wheel of the pure-Python fixture server (test/fixtures/packages/py_echo_server.py), written
 * by hand (a zip with METADATA, WHEEL, entry_points.txt and RECORD), in a local PEP 503 index
 * (`simple/<name>/index.html`) that pip reads through `--index-url file://...`, offline.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordHash, sha256, zip } from './zip-writer.js';

const SERVER = readFileSync(fileURLToPath(new URL('../fixtures/packages/py_echo_server.py', import.meta.url)), 'utf8');

export interface Dist {
  name: string;
  version: string;
  /** Console scripts: name -> module:function. */
  scripts?: Record<string, string>;
  /** Ship an sdist only (no wheel): pip must refuse it with --only-binary. */
  sdistOnly?: boolean;
}

function wheel(d: Dist): { file: string; data: Buffer } {
  const dist = d.name.replace(/-/g, '_');
  const info = `${dist}-${d.version}.dist-info`;
  const scripts = d.scripts ?? { [d.name]: 'py_echo_server:main' };
  const files: [string, string][] = [
    ['py_echo_server.py', SERVER],
    [
      `${info}/METADATA`,
      `Metadata-Version: 2.1\nName: ${d.name}\nVersion: ${d.version}\nSummary: idemscan test server\n`,
    ],
    [`${info}/WHEEL`, 'Wheel-Version: 1.0\nGenerator: idemscan-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n'],
    [
      `${info}/entry_points.txt`,
      `[console_scripts]\n${Object.entries(scripts)
        .map(([k, v]) => `${k} = ${v}`)
        .join('\n')}\n`,
    ],
  ];
  const record =
    [...files.map(([n, t]) => `${n},${recordHash(t)},${Buffer.byteLength(t)}`), `${info}/RECORD,,`].join('\n') + '\n';
  return {
    file: `${dist}-${d.version}-py3-none-any.whl`,
    data: zip([...files, [`${info}/RECORD`, record] as [string, string]].map(([name, data]) => ({ name, data }))),
  };
}

/** Writes the index under `root` and returns its `file://.../simple` URL. */
export function pypiIndex(root: string, dists: Dist[]): string {
  const simple = path.join(root, 'simple');
  const files = path.join(root, 'files');
  mkdirSync(files, { recursive: true });
  const links = new Map<string, string[]>();
  for (const d of dists) {
    const made = d.sdistOnly
      ? { file: `${d.name}-${d.version}.tar.gz`, data: Buffer.from('not really a tarball') }
      : wheel(d);
    writeFileSync(path.join(files, made.file), made.data);
    const norm = d.name.toLowerCase().replace(/[-_.]+/g, '-');
    links.set(norm, [
      ...(links.get(norm) ?? []),
      `<a href="../../files/${made.file}#sha256=${sha256(made.data)}">${made.file}</a>`,
    ]);
  }
  for (const [name, anchors] of links) {
    mkdirSync(path.join(simple, name), { recursive: true });
    writeFileSync(
      path.join(simple, name, 'index.html'),
      `<!DOCTYPE html>\n<html><body>\n${anchors.join('<br>\n')}\n</body></html>\n`,
    );
  }
  return `file://${simple}`;
}
