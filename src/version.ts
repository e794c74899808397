import { createRequire } from 'node:module';

const pkg = createRequire(import.meta.url)('../package.json') as { name: string; version: string };

export const TOOL_NAME: string = pkg.name;
export const TOOL_VERSION: string = pkg.version;
