/** The ```ts blocks of a Markdown page, for the tests that check docs show their example files verbatim. */
export function tsBlocks(text: string): string[] {
  const out: string[] = [];
  for (let at = text.indexOf('```ts\n'); at >= 0; at = text.indexOf('```ts\n', at)) {
    const end = text.indexOf('\n```', at + 6);
    out.push(text.slice(at + 6, end + 1));
    at = end + 4;
  }
  return out;
}
