/** `--format html`: one self-contained page (see ./page.ts). */
import type { Reporter } from '../types.js';
import { renderPage } from './page.js';

export const htmlReporter: Reporter = {
  id: 'html',
  fileName: 'report.html',
  render: renderPage,
};
