import { expect, it } from 'vitest';
import { PendingCloses } from '../../src/connect/closes.js';

const later = (ms: number, fail = false) =>
  new Promise<void>((resolve, reject) => setTimeout(() => (fail ? reject(new Error('EPERM')) : resolve()), ms));

it('settles once every close has finished, a failed one and one added while waiting included', async () => {
  const closes = new PendingCloses();
  const finished: string[] = [];
  closes.add(later(30, true).finally(() => finished.push('failed')));
  closes.add(
    later(10).then(() => {
      finished.push('first');
      closes.add(later(40).then(() => finished.push('added while waiting')));
    }),
  );
  await closes.settled();
  expect(finished).toEqual(['first', 'failed', 'added while waiting']);
  await closes.settled(); // nothing pending: at once
});
