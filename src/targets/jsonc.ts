/** JSON with comments, read into null-prototype objects, bounded in depth: every target file and client config. */
import { printParseErrorCode, visit } from 'jsonc-parser';
import { MAX_JSON_DEPTH } from '../model/bounded-input.js';
import { jsonErrorWords } from '../model/error-words.js';

/** Real files nest a handful of levels; the bound keeps a `[[[[...` file from overflowing the stack. */
export const MAX_TARGET_FILE_DEPTH = MAX_JSON_DEPTH;

class JsonStop {
  constructor(readonly message: string) {}
}

/** jsonc-parser's `parse` lets `"__proto__"` replace an entry's prototype; here every key is an own property. */
export function parseJsonc(text: string): { value: unknown } | { error: string } {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text; // editors on Windows write one
  let root: unknown;
  let key = '';
  const open: (Record<string, unknown> | unknown[])[] = [];
  const add = (value: unknown): void => {
    const parent = open.at(-1);
    if (parent === undefined) root = value;
    else if (Array.isArray(parent)) parent.push(value);
    else parent[key] = value;
  };
  const begin = (container: Record<string, unknown> | unknown[]): void => {
    if (open.length >= MAX_TARGET_FILE_DEPTH) throw new JsonStop(`nested deeper than ${MAX_TARGET_FILE_DEPTH} levels`);
    add(container);
    open.push(container);
  };
  try {
    visit(
      source,
      {
        onObjectBegin: () => begin(Object.create(null) as Record<string, unknown>),
        onObjectProperty: (name) => {
          key = name;
        },
        onObjectEnd: () => void open.pop(),
        onArrayBegin: () => begin([]),
        onArrayEnd: () => void open.pop(),
        onLiteralValue: add,
        // The first error is the one reported: nothing after it is read.
        onError: (error, offset) => {
          const { line, column } = position(source, offset);
          throw new JsonStop(
            `not valid JSON at line ${line}, column ${column}: ${jsonErrorWords(printParseErrorCode(error))}`,
          );
        },
      },
      { allowTrailingComma: true, disallowComments: false },
    );
  } catch (err) {
    if (err instanceof JsonStop) return { error: err.message };
    throw err;
  }
  return { value: root };
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: (before.at(-1)?.length ?? 0) + 1 };
}
