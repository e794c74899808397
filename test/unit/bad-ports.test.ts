/** Our copy of the Fetch standard's blocked ports is the list Node's fetch refuses. */
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { BAD_PORTS } from '../../src/io/bad-ports.js';

it("is undici's list (the fetch inside Node 20 is undici 6)", () => {
  const { badPorts } = createRequire(import.meta.url)('undici/lib/web/fetch/constants.js') as { badPorts: string[] };
  expect([...BAD_PORTS]).toEqual(badPorts);
});

it('each port on it is one fetch refuses, before connecting', async () => {
  const causes = await Promise.all(
    [...BAD_PORTS].map((port) =>
      fetch(`http://127.0.0.1:${port}/`).then(
        () => 'answered',
        (e: { cause?: { message?: string } }) => e.cause?.message,
      ),
    ),
  );
  expect(new Set(causes)).toEqual(new Set(['bad port']));
});
