/** SEP-2243's headers, derived as the SDK's client does (not exported): a 2026 server refuses a mismatch. */
import { PROTOCOL_VERSION_META_KEY } from './protocol.js';
import { isObject } from '../model/is-object.js';

/** Which `params` field `Mcp-Name` mirrors, per method. */
const NAME_FIELD: Record<string, string> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const BASE64_START = '=?base64?';
const BASE64_END = '?=';

/** A request (it has an id and a method) whose `_meta` claims a protocol version: that version. */
export function claimedVersion(message: Record<string, unknown>): string | undefined {
  if (typeof message.method !== 'string' || message.id === undefined || !isObject(message.params)) return undefined;
  const meta = message.params._meta;
  const version = isObject(meta) ? meta[PROTOCOL_VERSION_META_KEY] : undefined;
  return typeof version === 'string' ? version : undefined;
}

/** The body-derived headers of one message (lower-case names), none for a message without the claim. */
export function bodyHeaders(message: Record<string, unknown>): Record<string, string> {
  const version = claimedVersion(message);
  if (version === undefined) return {};
  const method = message.method as string;
  const headers: Record<string, string> = { 'mcp-protocol-version': version, 'mcp-method': method };
  const field = Object.hasOwn(NAME_FIELD, method) ? NAME_FIELD[method]! : undefined;
  const name = field === undefined ? undefined : (message.params as Record<string, unknown>)[field];
  if (typeof name === 'string') headers['mcp-name'] = fieldValue(name);
  return headers;
}

/** A value as an HTTP field value: plain printable ASCII as it is, anything else `=?base64?...?=`. */
function fieldValue(value: string): string {
  return needsBase64(value) ? `${BASE64_START}${Buffer.from(value, 'utf8').toString('base64')}${BASE64_END}` : value;
}

function needsBase64(s: string): boolean {
  if (s.length === 0 || s !== s.trim()) return true;
  if (s.startsWith(BASE64_START) && s.endsWith(BASE64_END)) return true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c !== 9 && (c < 32 || c > 126)) return true;
  }
  return false;
}
