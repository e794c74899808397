/* global fetch, AbortSignal, Buffer */
/**
 * A package's README from its tarball, for registries whose documents leave `readme` out (the
 * registry answers the census reads here do). One download, one gunzip and one walk over the tar
 * headers, each bounded: a tarball is untrusted input of any size.
 */
import { gunzipSync } from 'node:zlib';

const MAX_TARBALL = 64 * 1024 * 1024;
const MAX_UNPACKED = 256 * 1024 * 1024;
const MAX_README = 512 * 1024;
const BLOCK = 512;

/** The README text of the tarball at `url`, or undefined when it has none (or cannot be read). */
export async function tarballReadme(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(120_000) });
  if (!res.ok) throw new Error(`tarball: HTTP ${res.status}`);
  const packed = Buffer.from(await res.arrayBuffer());
  if (packed.length > MAX_TARBALL) return undefined;
  return readmeOf(gunzipSync(packed, { maxOutputLength: MAX_UNPACKED }));
}

/** The first `package/README*` file of a tar archive (any case, any extension), as UTF-8. */
export function readmeOf(tar) {
  for (let at = 0; at + BLOCK <= tar.length; ) {
    const header = tar.subarray(at, at + BLOCK);
    if (header[0] === 0) return undefined; // the end-of-archive blocks
    const name = header.subarray(0, 100).toString('utf8').split('\0', 1)[0];
    const size = parseInt(header.subarray(124, 136).toString('utf8').split('\0', 1)[0].trim() || '0', 8);
    const type = String.fromCharCode(header[156] || 48);
    if (!Number.isFinite(size) || size < 0) return undefined;
    const body = at + BLOCK;
    if ((type === '0' || type === '\0') && isReadme(name))
      return tar.subarray(body, body + Math.min(size, MAX_README)).toString('utf8');
    at = body + Math.ceil(size / BLOCK) * BLOCK;
  }
  return undefined;
}

/** `package/README.md`, `package/readme`, `package/Readme.markdown`: the top folder's README only. */
function isReadme(name) {
  const slash = name.indexOf('/');
  const file = name.slice(slash + 1);
  return slash > 0 && !file.includes('/') && file.toLowerCase().startsWith('readme');
}
