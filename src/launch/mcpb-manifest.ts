/** Loaded only for a bundle: a scan of other servers loads no zod. */
import { z } from 'zod';
import path from 'node:path';
import { readBoundedText } from '../io/read.js';
import { MAX_JSON_DEPTH, parseJson } from '../model/bounded-input.js';
import { describeZodError } from '../targets/formats/format.js';
import { envMap, launchText } from '../targets/formats/fields.js';

const Config = z.object({
  command: launchText.min(1),
  args: z.array(launchText).max(1000).optional(),
  // The checks of every target's env: a bundle's manifest is as untrusted as a list.
  env: envMap(launchText).optional(),
});

const Manifest = z.object({
  manifest_version: z.string().optional(),
  dxt_version: z.string().optional(),
  name: z.string().min(1).max(214),
  version: z.string().min(1).max(100),
  server: z.object({
    type: z.enum(['node', 'python', 'binary', 'uv']),
    entry_point: z.string().optional(),
    mcp_config: Config.extend({ platform_overrides: z.record(z.string(), Config.partial()).optional() }),
  }),
  user_config: z
    .record(
      z.string().regex(/^[\w.-]{1,100}$/),
      z.object({
        type: z.string().optional(),
        default: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]).optional(),
        required: z.boolean().optional(),
        sensitive: z.boolean().optional(),
      }),
    )
    .optional(),
});

export type McpbManifest = z.infer<typeof Manifest>;

/** A manifest is a few KB: its tools, prompts and user settings. */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/** Written from verified bytes, but a server run without --sandbox may have replaced it. */
export async function readManifest(dir: string): Promise<{ manifest: McpbManifest } | { error: string }> {
  const read = await readBoundedText(path.join(dir, 'manifest.json'), { maxBytes: MAX_MANIFEST_BYTES, noFollow: true });
  return 'text' in read ? parseManifest(read.text) : { error: `manifest.json: ${read.error}` };
}

export function parseManifest(text: string): { manifest: McpbManifest } | { error: string } {
  const doc = parseJson(text, { maxBytes: MAX_MANIFEST_BYTES, maxDepth: MAX_JSON_DEPTH });
  if ('error' in doc)
    return { error: doc.why === 'syntax' ? 'manifest.json is not JSON' : `manifest.json: ${doc.error}` };
  const parsed = Manifest.safeParse(doc.value);
  return parsed.success ? { manifest: parsed.data } : { error: describeZodError('manifest.json', parsed.error) };
}
