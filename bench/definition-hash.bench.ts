/** Figures for definitionHash on hostile shapes (bounded by one 16 MiB message): `node --import tsx bench/definition-hash.bench.ts`. */
import { definitionHashes } from '../src/model/definition-hash.js';
const cases: Record<string, Record<string, unknown>> = {
  'description 16 MiB': JSON.parse(JSON.stringify({ name: 't', description: 'x'.repeat(16 * 1024 * 1024) })),
  'schema, 300,000 properties (~9 MB JSON)': JSON.parse(
    JSON.stringify({
      name: 't',
      inputSchema: {
        type: 'object',
        properties: Object.fromEntries(Array.from({ length: 300_000 }, (_, i) => [`p${i}`, { type: 'string' }])),
      },
    }),
  ),
  'nesting 1,000,000 levels (2 MB JSON)': JSON.parse(
    `{"name":"t","inputSchema":${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}}`,
  ),
  'ordinary tool': {
    name: 'get_invoice',
    description: 'Get one invoice by id.',
    inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
    annotations: { readOnlyHint: true },
  },
};
for (const [label, raw] of Object.entries(cases)) {
  const n = label === 'ordinary tool' ? 10_000 : 1;
  const t = performance.now();
  for (let i = 0; i < n; i++) definitionHashes(raw);
  console.log(`${label}: ${((performance.now() - t) / n).toFixed(n > 1 ? 4 : 0)} ms`);
}
