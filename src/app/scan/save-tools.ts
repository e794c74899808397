/** `audit --save-tools`: the tools as sent, so `--tools` reads back the same verdicts; redacted as the report is. */
import { jsonExtent, MAX_JSON_DEPTH } from '../../model/bounded-input.js';
import { RULE } from '../../model/catalogue.js';
import { InputError } from '../../model/input-error.js';
import { TOOL_VERSION } from '../../model/version.js';
import type { Observation } from '../../connect/observe.js';
import { msg, show } from '../../render/message.js';
import { redactDeep } from '../../redact/redact-report.js';
import type { Redactor } from '../../redact/redact.js';
import { MAX_TARGET_FILE_BYTES } from '../../targets/load.js';
import { checkOutputFile, codeOf, writeOutputFile, wroteLine } from '../output.js';
import type { Say } from '../say.js';

/** A `tools/list` result with the `initialize` result's fields around it, in the order written. */
export interface SavedTools {
  savedBy: string;
  protocol?: { era: string; version: string };
  serverInfo?: Record<string, unknown>;
  capabilities?: Record<string, unknown>;
  tools: unknown[];
}

export async function checkSaveTools(file: string, saved: boolean): Promise<void> {
  if (saved) throw new InputError('--save-tools writes what a live server answers: give a command or URL, not --tools');
  await checkOutputFile('--save-tools', file);
}

export class ToolsSaver {
  private saved?: SavedTools;
  private why = 'the server was not listed';
  /** A listing finding that says the list is not whole. */
  private cut?: string;
  /** Values cut for nesting deeper than --tools reads. */
  private deepCut = 0;

  constructor(readonly file: string) {}

  readonly keep = (obs: Observation, redactor: Redactor | undefined): void => {
    if (obs.failure || !obs.session || !obs.sent) {
      this.why = obs.failure ? `the server failed (${obs.failure.kind})` : this.why;
      return;
    }
    const { session } = obs;
    this.cut = obs.findings.find((f) => CUT.has(f.rule))?.rule;
    const deep = { cut: 0 };
    // Keys too (a property named after a token); and cut where --tools could not read the file back.
    const clean = <T>(v: T): T => shallow(redactor ? redactDeep(v, (t) => redactor.text(t), true) : v, deep);
    this.saved = {
      savedBy: `idemscan ${TOOL_VERSION} audit --save-tools`,
      protocol: { era: session.era, version: clean(session.version) },
      ...(session.serverInfo ? { serverInfo: clean(session.serverInfo) } : {}),
      ...(session.capabilities ? { capabilities: clean(session.capabilities) } : {}),
      tools: obs.sent.map((tool) => cleanTool(tool, clean)),
    };
    this.deepCut = deep.cut;
  };

  /** A server that was not listed is the audit's own failure (exit 3): said, and not the file's. */
  async write(say: Say): Promise<boolean> {
    const fail = (why: string) => (say.tell(msg`--save-tools: ${show.path(this.file)} not written: ${why}`), false);
    if (!this.saved) return fail(this.why) || true;
    const text = fileText(this.saved);
    if (typeof text !== 'string') return fail(text.why);
    try {
      await writeOutputFile(this.file, text);
    } catch (err) {
      return fail(`cannot write (${codeOf(err)})`);
    }
    say.note(wroteLine(this.file));
    if (this.deepCut > 0)
      say.warn(
        msg`--save-tools: ${String(this.deepCut)} values nested deeper than --tools reads (${String(MAX_JSON_DEPTH)} levels) are written as "${NESTED}"`,
      );
    if (this.cut)
      say.warn(
        msg`--save-tools: the list as read was not whole (${show.name(this.cut)}): ${show.path(this.file)} holds the tools read, and --tools of it will not say that others are missing`,
      );
    return true;
  }
}

/** Values only: the field names are idemscan's own (DEFINITION_FIELDS). */
function cleanTool(tool: unknown, clean: <T>(v: T) => T): unknown {
  if (!tool || typeof tool !== 'object' || Array.isArray(tool)) return clean(tool);
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(tool)) out[field] = clean(value);
  return out;
}

/** What stands for a value nested too deep for the file (hints sit near the top, and stay). */
const NESTED = '(nested too deep)';
/** A field's value sits 3 levels down (the file, `tools`, the tool): it may nest the rest. */
const FIELD_DEPTH = MAX_JSON_DEPTH - 3;

/** Its own stack: a server may nest 100,000 levels. */
function shallow<T>(value: T, deep: { cut: number }): T {
  if (!('tooDeep' in jsonExtent(value, { maxDepth: FIELD_DEPTH }))) return value;
  const copy = (v: unknown, depth: number): unknown => {
    if (!v || typeof v !== 'object') return v;
    if (depth >= FIELD_DEPTH) return (deep.cut++, NESTED);
    return Array.isArray(v) ? [] : {};
  };
  const root = copy(value, 0);
  const stack: [unknown, unknown, number][] = [[value, root, 1]];
  while (stack.length > 0) {
    const [from, to, depth] = stack.pop()!;
    const entries = Array.isArray(from) ? from.map((v, i) => [i, v] as const) : Object.entries(from as object);
    for (const [k, v] of entries) {
      const c = copy(v, depth);
      if (Array.isArray(to)) to.push(c);
      else Object.defineProperty(to, k, { value: c, enumerable: true, writable: true, configurable: true });
      if (c !== NESTED && c && typeof c === 'object') stack.push([v, c, depth + 1]);
    }
  }
  return root as T;
}

/** Listing findings that say the list was cut: the file holds only what was read, and --tools will not say so. */
const CUT: ReadonlySet<string> = new Set<string>([
  RULE.toolListIncomplete,
  RULE.toolListTruncated,
  RULE.paginationBound,
  RULE.paginationLoop,
  RULE.paginationInvalidCursor,
  RULE.memoryBudget,
]);

function fileText(saved: SavedTools): string | { why: string } {
  const extent = jsonExtent(saved, { maxDepth: MAX_JSON_DEPTH, maxLength: MAX_TARGET_FILE_BYTES });
  if ('tooDeep' in extent)
    return { why: `a tool's definition nests deeper than the ${MAX_JSON_DEPTH} levels --tools reads` };
  const text = extent.length <= MAX_TARGET_FILE_BYTES ? JSON.stringify(saved, null, 2) + '\n' : undefined;
  if (text === undefined || Buffer.byteLength(text) > MAX_TARGET_FILE_BYTES)
    return { why: `larger than the ${MAX_TARGET_FILE_BYTES / 1024 / 1024} MiB --tools reads` };
  return text;
}
