import type { Reporter } from './types.js';

export const jsonReporter: Reporter = {
  id: 'json',
  fileName: 'report.json',
  render: (report) => JSON.stringify(report, null, 2) + '\n',
};
