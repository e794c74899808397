// Preloaded with `node --import`: appends the URL of every module the process loads to the file
// named by IDEMSCAN_IMPORT_LOG (the hooks run in their own thread, so they write it themselves).
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(process.env.IDEMSCAN_IMPORT_LOG, url + '\\n');
  return next(url, context);
}`),
);
