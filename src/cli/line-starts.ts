/**
 * No line either stream prints may start with `::`, which GitHub Actions runs as a workflow command:
 * guarding the streams, not each message, covers a server name that wraps to a line start.
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
