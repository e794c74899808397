/** A target file of hundreds of thousands of entries, or with a megabyte key, loads within its bounds. */
import { expect, it } from 'vitest';
import { parseTargets } from '../../src/targets/load.js';

const load = (text: string) => parseTargets(text, 'hostile.json', { HOME: '/home/u' });

it('a file of 200,000 entries loads (no push(...) of them all at once) and each reason is bounded', () => {
  const entries = Array.from({ length: 200_000 }, (_, i) => `"s${i}":{"command":"x"}`);
  expect(load(`{"mcpServers":{${entries.join(',')}}}`).targets).toHaveLength(200_000);
  const { skipped } = load(`{"servers":[{"name":"a","command":"x","${'K'.repeat(1_000_000)}":1}]}`);
  expect(skipped[0]!.reason.length).toBeLessThanOrEqual(1_000);
});
