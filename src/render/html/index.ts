/** `--format html`: one self-contained page (see ./page.ts). */
import type { Reporter } from '../types.js';
import { renderPage } from './page.js';

export const htmlReporter: Reporter = {
  render: renderPage,
};
