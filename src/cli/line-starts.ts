/**
 * Every line the CLI prints, whatever printed it: none may start with `::`, which GitHub Actions
 * runs as a workflow command (terminal.ts, noCommandLines). Guarding the two streams, not each
 * message, keeps a server name at the start of any line (an indented list, a wrapped message) safe
 * and leaves `::` inside a line as it was. Writes are followed across calls: a write that continues
 * a line is not a line start.
 */
import { endsAtLineStart, noCommandLines } from '../render/terminal.js';

export function guardLineStarts(stream: NodeJS.WriteStream): void {
  const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
  let lineStart = true;
  stream.write = ((chunk: unknown, ...rest: unknown[]): boolean => {
    // Only the CLI's own text is written here, as strings; bytes pass as they are.
    if (typeof chunk !== 'string') return write(chunk, ...rest);
    const guarded = noCommandLines(chunk, lineStart);
    lineStart = endsAtLineStart(chunk, lineStart);
    return write(guarded, ...rest);
  }) as typeof stream.write;
}
