/**
 * A bundle's manifest.json, checked with zod (only the fields idemscan uses), and the substitution
 * of `${__dirname}` and `${user_config.KEY}` in its `mcp_config`. User config gets its default
 * when it has one that is not secret, else an obvious fake value (named in `fake`), never anything
 * of the user's.
 */
import { z } from 'zod';
import { describeZodError } from './formats/format.js';
import { launchText } from './formats/fields.js';

const Config = z.object({
  command: launchText.min(1),
  args: z.array(launchText).max(1000).optional(),
  env: z.record(z.string(), launchText).optional(),
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

const PATTERN = /\$\{([^}]{1,200})\}/g;

/** The filler of `${...}` for one bundle; `env` (the target's) may give a user_config value by its key. */
export function substitute(dir: string, manifest: McpbManifest, env: Record<string, string> = {}) {
  const fake: string[] = [];
  const values = new Map<string, string>();
  for (const [key, spec] of Object.entries(manifest.user_config ?? {})) {
    const given = Object.hasOwn(env, key) ? env[key] : undefined;
    const fallback = spec.default === undefined || spec.sensitive ? undefined : Array.isArray(spec.default) ? spec.default.join(',') : String(spec.default);
    if (given !== undefined) values.set(key, given);
    else if (fallback !== undefined && !fallback.includes('${')) values.set(key, fallback);
    else if (spec.required || spec.sensitive) {
      values.set(key, `idemscan-fake-${key.toLowerCase()}`);
      fake.push(`user_config.${key}`);
    } else values.set(key, '');
  }
  const fill = (text: string) =>
    text.replace(PATTERN, (whole, name: string) => {
      if (name === '__dirname') return dir;
      if (name.startsWith('user_config.') && values.has(name.slice(12))) return values.get(name.slice(12))!;
      return whole;
    });
  return { values, fake, fill };
}
