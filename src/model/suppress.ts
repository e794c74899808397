/**
 * The suppression file (`--suppress FILE`, default `.idemscan-suppress.json`): its zod schema =
 * types. Each entry names what a repository has reviewed and accepts, with its reason and an
 * optional last day: a finding (`rule`), or a tool's verdict (`verdict` and `tool`), which
 * `--fail-on <verdict>` then no longer counts for that tool. Parsed and applied by compare/suppress.ts.
 */
import { z } from 'zod';
import { Verdict } from './schema-base.js';

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'not a calendar date');

export const SuppressEntry = z
  .object({
    /** A rule id (docs/rules/README.md), or a profile's `profile/requirement`. */
    rule: z.string().min(1).optional(),
    /**
     * A verdict (`unprotected`, ...) accepted for one tool: `tool` is required, since an entry for
     * every tool's verdict would be the verdict taken out of `--fail-on`.
     */
    verdict: Verdict.optional(),
    /** The tool's name; absent (rule entries only): every tool's finding of the rule, and the server's own. */
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
  .strict()
  .superRefine((e, ctx) => {
    if (e.rule !== undefined && e.verdict !== undefined)
      ctx.addIssue({ code: 'custom', path: ['verdict'], message: 'an entry names a rule or a verdict, not both' });
    else if (e.rule === undefined && e.verdict === undefined)
      ctx.addIssue({ code: 'custom', path: ['rule'], message: 'required: a rule id, or a verdict with its tool' });
    else if (e.verdict !== undefined && e.tool === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['tool'],
        message: `required with a verdict: the tool whose verdict ${e.verdict} was reviewed`,
      });
  });

export type SuppressEntry = z.infer<typeof SuppressEntry>;

export interface Suppressions {
  file: string;
  entries: SuppressEntry[];
}
