/** So the first scan already says which tools a client must not retry blindly; names escaped like every cell. */
import type { ServerFold } from '../model/report-head.js';
import { cellText } from './columns.js';
import { commandLines, cutEnd, cutMiddle, displayWidth } from './width.js';
import { declaresNothing } from '../model/advice.js';

/** Servers listed at most: the rest are in the tools view. */
const WORST_SERVERS = 5;
/** Tool names per server when the width is unbounded (a pipe). */
const NAMES_UNBOUNDED = 10;
const NAME_WIDTH = 40;

/** The servers with the most unprotected tools, kept as the servers go by, and how many have any. */
export interface WorstServers {
  shown: Worst[];
  having: number;
}

/** A fold: the worst few kept, the rest counted, for a spooled scan. */
export function worstServers(): ServerFold<WorstServers> {
  const shown: Worst[] = [];
  let having = 0;
  return {
    add(s) {
      const unprotected = s.tools.filter((t) => t.verdict === 'unprotected');
      if (unprotected.length === 0) return;
      having += 1;
      // Declared writes first: they are what the author says repeats; those that declare nothing follow.
      const undeclared = unprotected.filter(declaresNothing);
      const tools = [...unprotected.filter((t) => !declaresNothing(t)), ...undeclared].map((t) => t.name);
      shown.push({ name: s.name, tools, undeclared: undeclared.length });
      shown.sort(worstFirst);
      if (shown.length > WORST_SERVERS) shown.pop();
    },
    result: () => ({ shown, having }),
  };
}

/** `toolsCommand`: the command that shows every tool, when the CLI knows the report file. */
export function unprotectedLines(worst: WorstServers, width: number, toolsCommand?: string): string[] {
  const { shown, having } = worst;
  if (having === 0) return [];
  const lines = [
    cutEnd(
      shown.length < having
        ? `Unprotected tools, the ${shown.length} servers with the most (of ${having}):`
        : 'Unprotected tools:',
      width,
    ),
  ];
  for (const s of shown) lines.push(serverLine(cutMiddle(cellText(s.name, 256), NAME_WIDTH), s, width));
  const how = toolsCommand ?? 'idemscan report <report.json> --format tools';
  const say = `Every tool with its verdict and evidence${toolsCommand ? '' : ' (write the report with --format json)'}:`;
  // A command is never cut (it would not run): it goes on lines of its own, broken at spaces.
  if (displayWidth(`${say} ${how}`) <= width) lines.push(`${say} ${how}`);
  else lines.push(cutEnd(say, width), ...commandLines(how, width));
  return lines;
}

interface Worst {
  name: string;
  tools: string[];
  /** How many of them declare no hint at all (the last of `tools`). */
  undeclared: number;
}

/** Most unprotected tools first, then by name. */
function worstFirst(a: Worst, b: Worst): number {
  return b.tools.length - a.tools.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** `(12)`, or `(12, 3 with no hints)`: those that declare nothing are counted apart from declared writes. */
function countText(s: Worst): string {
  const n = s.tools.length;
  return s.undeclared === 0 ? `(${n})` : `(${n}, ${s.undeclared === n ? 'all' : s.undeclared} with no hints)`;
}

/** `  name (12): a, b, c, +9 more`, as many names as fit `width`. */
function serverLine(name: string, s: Worst, width: number): string {
  const tools = s.tools;
  const start = `  ${name} ${countText(s)}: `;
  const limit = Number.isFinite(width) ? tools.length : Math.min(tools.length, NAMES_UNBOUNDED);
  let line = start;
  let listed = 0;
  for (; listed < limit; listed++) {
    const word = cutMiddle(cellText(tools[listed]!, 256), NAME_WIDTH);
    const rest = tools.length - listed - 1;
    const next = `${listed > 0 ? ', ' : ''}${word}`;
    // Room for this name and, if more follow, for ", +N more".
    const tail = rest > 0 ? `, +${rest} more`.length : 0;
    if (listed > 0 && displayWidth(line) + displayWidth(next) + tail > width) break;
    line += next;
  }
  if (listed < tools.length) line += `${listed > 0 ? ', ' : ''}+${tools.length - listed} more`;
  return cutEnd(line, width);
}
