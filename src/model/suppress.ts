// The suppression file: what a repository reviewed and accepts, a finding or a tool's verdict.
import { z } from 'zod';
import { Verdict } from './schema-base.js';

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'not a calendar date');

export const SuppressEntry = z
  .object({
    /** A rule id, or a profile's `profile/requirement`. */
    rule: z.string().min(1).optional(),
    /** Needs `tool`: an entry for every tool would take the verdict out of `--fail-on`. */
    verdict: Verdict.optional(),
    /** Absent: every tool's finding of the rule, and the server's own. */
    tool: z.string().min(1).optional(),
    /** As `servers[].name` shows it, never a claimed serverInfo.name; absent: every server. */
    server: z.string().min(1).optional(),
    reason: z
      .string({ error: 'required: why this finding is accepted (shown in SARIF and the reports)' })
      .trim()
      .min(1, 'required: why this finding is accepted'),
    /** The last day it applies, UTC. */
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
