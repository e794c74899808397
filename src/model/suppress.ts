/**
 * The suppression file (`--suppress FILE`, default `.idemscan-suppress.json`): its zod schema =
 * types. Each entry names a finding a repository has reviewed and accepts, with its reason and an
 * optional last day. Parsed and applied by compare/suppress.ts.
 */
import { z } from 'zod';

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'not a calendar date');

export const SuppressEntry = z
  .object({
    /** A rule id (docs/rules/README.md), or a profile's `profile/requirement`. */
    rule: z.string().min(1),
    /** The tool's name; absent: every tool's finding of the rule, and the server's own. */
    tool: z.string().min(1).optional(),
    /**
     * The server's name as the report shows it (servers[].name: in a scan the list's key, never the
     * serverInfo.name a server of a list could claim); absent: every server.
     */
    server: z.string().min(1).optional(),
    reason: z
      .string({ error: 'required: why this finding is accepted (shown in SARIF and the reports)' })
      .trim()
      .min(1, 'required: why this finding is accepted'),
    /** The last day the entry applies (UTC). */
    expires: day.optional(),
  })
  .strict();

export type SuppressEntry = z.infer<typeof SuppressEntry>;

export interface Suppressions {
  file: string;
  entries: SuppressEntry[];
}
