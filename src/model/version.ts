import { createRequire } from 'node:module';

const pkg = createRequire(import.meta.url)('../../package.json') as {
  name: string;
  version: string;
  repository?: { url?: string };
};

export const TOOL_NAME: string = pkg.name;
export const TOOL_VERSION: string = pkg.version;
/** The repository's web address (`https://github.com/OWNER/idemscan`), from package.json's `repository`. */
export const TOOL_REPOSITORY: string = (pkg.repository?.url ?? 'https://github.com/OWNER/idemscan')
  .replace(/^git\+/, '')
  .replace(/\.git$/, '');
