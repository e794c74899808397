/**
 * A bundle's manifest.json, checked with zod (only the fields idemscan uses). Loaded only when a
 * bundle is installed or started: a scan of other servers loads no zod.
 */
import { z } from 'zod';
import { describeZodError } from './formats/format.js';
import { envMap, launchText } from './formats/fields.js';

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

export function parseManifest(text: string): { manifest: McpbManifest } | { error: string } {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return { error: 'manifest.json is not JSON' };
  }
  const parsed = Manifest.safeParse(doc);
  return parsed.success ? { manifest: parsed.data } : { error: describeZodError('manifest.json', parsed.error) };
}
