// The caller's objects are never changed.
import { isObject } from '../model/is-object.js';

export type PathSegment = { name: string } | { any: true };

/** Undefined for a path `findKeyArguments` does not write. */
export function parseKeyPath(path: string): PathSegment[] | undefined {
  if (!path.startsWith('$')) return undefined;
  const out: PathSegment[] = [];
  let i = 1;
  while (i < path.length) {
    if (path[i] === '.') {
      let end = i + 1;
      while (end < path.length && path[end] !== '.' && path[end] !== '[') end++;
      const name = path.slice(i + 1, end);
      if (!name) return undefined;
      out.push(name === '*' ? { any: true } : { name });
      i = end;
    } else if (path.startsWith('[*]', i)) {
      out.push({ any: true });
      i += 3;
    } else if (path.startsWith('["', i)) {
      let end = i + 2;
      while (end < path.length && path[end] !== '"') end += path[end] === '\\' ? 2 : 1;
      if (path[end + 1] !== ']') return undefined;
      try {
        out.push({ name: JSON.parse(path.slice(i + 1, end + 1)) as string });
      } catch {
        return undefined;
      }
      i = end + 2;
    } else return undefined;
  }
  return out;
}

/** A wildcard sets the key in every element already there, so an empty array gets none. */
export function placeKey(
  args: Record<string, unknown>,
  path: string,
  value: string,
): { args: Record<string, unknown>; placed: boolean } {
  const segments = parseKeyPath(path);
  if (!segments || segments.length === 0) return { args, placed: false };
  let placed = false;
  const put = (node: unknown, at: number): unknown => {
    const seg = segments[at]!;
    const last = at === segments.length - 1;
    if ('any' in seg) {
      if (Array.isArray(node)) return node.map((el) => (last ? mark(value) : put(el, at + 1)));
      if (isObject(node))
        return Object.fromEntries(Object.entries(node).map(([k, el]) => [k, last ? mark(value) : put(el, at + 1)]));
      return node;
    }
    const base = isObject(node) ? node : node === undefined ? {} : undefined;
    if (!base) return node; // a string or number where an object belongs: not ours to replace
    const copy: Record<string, unknown> = { ...base };
    // Defined as a plain own property: "__proto__" as a key name must not reach the prototype.
    Object.defineProperty(copy, seg.name, {
      value: last ? mark(value) : put(base[seg.name], at + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
    return copy;
  };
  const mark = (v: string) => {
    placed = true;
    return v;
  };
  const out = put(args, 0);
  return { args: isObject(out) ? out : args, placed };
}
