/** The reason often sits above a footer ("Node.js v20.20.2", a closing brace). Linear, no regex. */

/** Words that mark the line saying what went wrong; case matters (`Error`, not a path's `errors/`). */
const TELLING = [
  'Error',
  'error:',
  'ERROR',
  'Cannot ',
  'cannot ',
  'ENOENT',
  'EACCES',
  'EADDRINUSE',
  'ECONNREFUSED',
  'No such file',
  'not found',
  'fatal',
  'Fatal',
  'FATAL',
  'panic',
  'Exception',
  'denied',
];

/** The first line of `text` that says what went wrong, else the last line with something on it; '' for none. */
export function tellingLine(text: string): string {
  let last = '';
  let start = 0;
  while (start <= text.length) {
    let end = start;
    while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
    const line = text.slice(start, end).trim();
    if (line !== '') {
      if (TELLING.some((w) => line.includes(w))) return line;
      last = line;
    }
    start = end + 1;
  }
  return last;
}
