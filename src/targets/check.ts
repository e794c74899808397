/** The one check of a target's fields, from our list or a library caller; plain code so `audit` loads no schema. */
import { SHA256 } from '../model/package-spec.js';
import { entryProblem } from './names.js';
import { isObject } from '../model/is-object.js';

export const SHA256_WORDS = '"sha256" is the 64 hex digits of a "mcpb" bundle';

export interface TargetProblem {
  /** The field as the flat input names it (`command`, `mcpb.sha256`, `env."A=B"`); `''`: the entry. */
  field: string;
  message: string;
}

type Fields = Record<string, unknown>;

const LAUNCH_FIELDS = ['command', 'url', 'npm', 'pypi', 'mcpb', 'oci'] as const;

const isText = (v: unknown) => typeof v === 'string' && v !== '';
const isTextRecord = (v: unknown): v is Record<string, string> =>
  isObject(v) && Object.values(v).every((x) => typeof x === 'string');
const isStrings = (v: unknown) => Array.isArray(v) && v.every((a) => typeof a === 'string');
export const isPositiveInt = (v: unknown) =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 && v <= 2_147_483_647;

/** Every problem of the fields, in the order a reader meets them; none when they make one target. */
export function targetProblems(t: Fields): TargetProblem[] {
  const out: TargetProblem[] = [];
  const fail = (field: string, message: string) => void out.push({ field, message });
  if (!isText(t.name)) fail('name', 'required: a non-empty string');
  if (typeof t.source !== 'string')
    fail('source', 'required: a string saying where the target came from (shown in errors)');
  const launch = launchProblem(t);
  if (launch) out.push(launch);
  if (t.command !== undefined && !isText(t.command)) fail('command', 'expected a non-empty string');
  if (t.npm !== undefined && !isText(t.npm)) fail('npm', 'expected a pinned package, "name@1.2.3"');
  if (t.pypi !== undefined && !isText(t.pypi)) fail('pypi', 'expected a pinned package, "name==1.2.3"');
  if (t.oci !== undefined && !isText(t.oci))
    fail('oci', 'expected a pinned image, "registry/name:1.2.3" or "name@sha256:..."');
  if (t.index !== undefined && t.pypi === undefined) fail('index', '"index" applies to "pypi" packages only');
  else if (t.index !== undefined && !isText(t.index)) fail('index', 'expected the URL of a PEP 503 index');
  if (t.mcpb !== undefined) mcpbProblems(t.mcpb, fail);
  if (t.oauth !== undefined && t.url === undefined) fail('oauth', '"oauth" applies to "url" servers only');
  else if (t.oauth !== undefined && !isObject(t.oauth)) fail('oauth', 'expected { clientId, scopes }');
  if (t.installScripts !== undefined && t.npm === undefined)
    fail('installScripts', '"installScripts" applies to "npm" packages only');
  else if (t.installScripts !== undefined && !isText(t.installScripts))
    fail('installScripts', 'give the reason the package needs its install scripts');
  if (t.bin !== undefined && !isText(t.bin)) fail('bin', 'expected the name of a bin');
  if (t.url !== undefined && typeof t.url !== 'string') fail('url', 'expected an http(s) URL');
  if (t.args !== undefined && !isStrings(t.args)) fail('args', 'expected an array of strings');
  recordProblems(t, 'env', fail);
  if (t.cwd !== undefined && typeof t.cwd !== 'string') fail('cwd', 'expected a string');
  recordProblems(t, 'headers', fail);
  if (t.timeoutMs !== undefined && !isPositiveInt(t.timeoutMs))
    fail('timeoutMs', 'expected a positive whole number of milliseconds');
  if (t.trusted !== undefined && typeof t.trusted !== 'boolean') fail('trusted', 'expected true or false');
  if (disagrees(t))
    fail('transport', '"transport" must be "stdio" for a command or package, "http" or "sse" for a url');
  return out;
}

/** What starts or reaches the server: exactly one of its fields (a saved list: none). */
function launchProblem(t: Fields): TargetProblem | undefined {
  const given = LAUNCH_FIELDS.filter((f) => t[f] !== undefined);
  if (t.transport === 'static') {
    if (!isObject(t.saved) || !Array.isArray(t.saved.tools))
      return { field: 'saved', message: 'a static target needs saved: { tools: [...] } (a saved tools/list result)' };
    if (given.length > 0)
      return { field: 'saved', message: 'a static target is a saved list: it takes no command, package or url' };
    return undefined;
  }
  if (given.length === 1) return undefined;
  if (t.transport === 'stdio' && t.url === undefined)
    return {
      field: 'command',
      message: 'a stdio target needs exactly one of "command", "npm", "pypi", "mcpb" or "oci"',
    };
  if ((t.transport === 'http' || t.transport === 'sse') && t.url === undefined)
    return { field: 'url', message: `required for transport "${t.transport}": an http(s) URL` };
  return { field: '', message: 'exactly one of "command", "url", "npm", "pypi", "mcpb" or "oci" is required' };
}

/** A `transport` given that is not the one its one launch field makes it. */
function disagrees(t: Fields): boolean {
  if (t.transport === undefined || t.transport === 'static') return false;
  if (LAUNCH_FIELDS.filter((f) => t[f] !== undefined).length !== 1) return false;
  return t.url === undefined ? t.transport !== 'stdio' : t.transport === 'stdio';
}

function mcpbProblems(mcpb: unknown, fail: (field: string, message: string) => void): void {
  const sha256 = isObject(mcpb) ? mcpb.sha256 : undefined;
  if (!isObject(mcpb) || typeof mcpb.url !== 'string' || (sha256 !== undefined && typeof sha256 !== 'string'))
    return fail('mcpb', 'expected { url, sha256 }');
  if (!sha256)
    return fail('mcpb.sha256', 'a "mcpb" bundle needs its "sha256" (it is checked before anything is unpacked)');
  if (!SHA256.test(sha256)) fail('mcpb.sha256', SHA256_WORDS);
}

/** `env` or `headers`: names to text, each name (and header value) one that can be sent. */
function recordProblems(t: Fields, kind: 'env' | 'headers', fail: (field: string, message: string) => void): void {
  const record = t[kind];
  if (record === undefined) return;
  if (!isTextRecord(record)) return fail(kind, 'expected an object of string values');
  const problem = entryProblem(record, kind);
  if (problem) fail(`${kind}.${JSON.stringify(problem[0]).slice(0, 100)}`, problem[1]);
}
