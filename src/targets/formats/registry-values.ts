/** A value with a `{placeholder}` the client is meant to fill in. */
const TEMPLATE = /\{[^{}]+\}/;
const PLACEHOLDER = 'idemscan-placeholder';

interface KeyValue {
  name?: string;
  value?: string;
  default?: string;
  isRequired?: boolean;
  isSecret?: boolean;
}

interface Arg {
  type?: string;
  name?: string;
  value?: string;
  default?: string;
  isRequired?: boolean;
}

/** A value from the file, quoted and cut short for a message. */
export function quote(value: unknown): string {
  return (JSON.stringify(value) ?? String(value)).slice(0, 80);
}

/** A null-prototype map: a variable or header named `__proto__` is kept like any other. */
export function fill(vars: KeyValue[]): { values: Record<string, string>; fake: string[] } {
  const values = Object.create(null) as Record<string, string>;
  const fake: string[] = [];
  for (const v of vars) {
    if (!v.name) continue;
    const given = v.value ?? v.default;
    if (given !== undefined && !TEMPLATE.test(given)) values[v.name] = given;
    else if (v.isRequired || v.isSecret) {
      values[v.name] = `idemscan-fake-${v.name.toLowerCase()}`;
      fake.push(v.name);
    }
  }
  return { values, fake };
}

/** `value`, else `default`, skipping templates; a required argument with neither gets a placeholder. */
export function args(list: Arg[]): string[] {
  const out: string[] = [];
  for (const a of list) {
    const given = [a.value, a.default].find((v) => typeof v === 'string' && !TEMPLATE.test(v));
    const value = given ?? (a.isRequired ? PLACEHOLDER : undefined);
    if (a.type === 'named' && a.name) {
      if (value === undefined) continue;
      out.push(a.name, value);
    } else if (value !== undefined) out.push(value);
  }
  return out;
}

/** One linear scan: a `/\/+$/` regex is quadratic on many slashes. */
export function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 47) end--;
  return url.slice(0, end);
}
