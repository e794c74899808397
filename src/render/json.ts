import type { Reporter } from './types.js';

export const jsonReporter: Reporter = {
  render: (report) => JSON.stringify(report, null, 2) + '\n',
};
