/** Who a census counted, read from each server's target: stdio packages and remotes are never pooled. */
import type { ServerReport, TargetInfo } from '../../model/schema.js';
import type { Population, PopulationId } from './census-stats-schema.js';

/** Populations in the order they are shown: the packages a census runs first. */
const ORDER: readonly PopulationId[] = ['stdio', 'remote', 'saved'];

function populationOf(target: TargetInfo): PopulationId {
  if (target.transport === 'http' || target.transport === 'sse') return 'remote';
  return target.transport === 'static' ? 'saved' : 'stdio';
}

/** What was launched or reached: a package kind for stdio, the transport otherwise. */
function kindOf(t: TargetInfo): string {
  if (t.transport !== 'stdio') return t.transport;
  if (t.npm !== undefined) return 'npm';
  if (t.pypi !== undefined) return 'pypi';
  if (t.mcpb !== undefined) return 'mcpb';
  return t.oci !== undefined ? 'oci' : 'command';
}

const KIND_NOUNS: Record<string, readonly [string, string]> = {
  npm: ['npm package', 'npm packages'],
  pypi: ['PyPI package', 'PyPI packages'],
  mcpb: ['.mcpb bundle', '.mcpb bundles'],
  oci: ['OCI image', 'OCI images'],
  command: ['local command', 'local commands'],
};
const TRANSPORTS: Record<string, string> = { http: 'Streamable HTTP', sse: 'SSE' };

const and = (words: string[]) =>
  words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;

/** `748 npm packages run on stdio`; without a count, the plural alone (`npm packages run on stdio`). */
export function populationWords(p: Pick<Population, 'id' | 'kinds'>, count?: number): string {
  const kinds = Object.keys(p.kinds).sort();
  const many = count !== 1;
  const lead = count === undefined ? '' : `${count.toLocaleString('en-US')} `;
  if (p.id === 'remote') {
    const over = kinds.map((k) => TRANSPORTS[k] ?? k).join(' or ');
    return `${lead}remote ${many ? 'servers' : 'server'}${over ? ` over ${over}` : ''}`;
  }
  if (p.id === 'saved') return `${lead}saved tool ${many ? 'lists' : 'list'} (never contacted)`;
  const noun = (k: string) => KIND_NOUNS[k]?.[many ? 1 : 0] ?? k;
  if (kinds.length === 1) return `${lead}${noun(kinds[0]!)} run on stdio`;
  const of = kinds.map((k) => KIND_NOUNS[k]?.[1] ?? k);
  return `${lead}${many ? 'servers' : 'server'} run on stdio${of.length ? ` (${and(of)})` : ''}`;
}

/** The report's populations, each with its servers, in ORDER; none for a report without servers. */
export function populationsOf(servers: readonly ServerReport[]): { population: Population; servers: ServerReport[] }[] {
  return ORDER.flatMap((id) => {
    const own = servers.filter((s) => populationOf(s.target) === id);
    if (own.length === 0) return [];
    const kinds: Record<string, number> = {};
    for (const s of own) kinds[kindOf(s.target)] = (kinds[kindOf(s.target)] ?? 0) + 1;
    const population: Population = {
      id,
      label: populationWords({ id, kinds }),
      servers: own.length,
      serversOk: own.filter((s) => s.status === 'ok').length,
      kinds,
    };
    return [{ population, servers: own }];
  });
}

/** `829 list entries: 748 npm packages run on stdio (523 scanned ok, 225 failed), 81 skipped before they ran`. */
export function populationSentence(parts: readonly Population[], skipped: number): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const each = parts.map(
    (p) =>
      `${populationWords(p, p.servers)} (${n(p.serversOk)} scanned ok${p.servers > p.serversOk ? `, ${n(p.servers - p.serversOk)} failed` : ''})`,
  );
  const entries = parts.reduce((sum, p) => sum + p.servers, 0) + skipped;
  if (skipped > 0) each.push(`${n(skipped)} skipped before ${skipped === 1 ? 'it' : 'they'} ran`);
  return `${n(entries)} list ${entries === 1 ? 'entry' : 'entries'}: ${each.length ? and(each) : 'none'}`;
}
