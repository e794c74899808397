// The source of a profile's type, validation and docs/rules/profiles/profile.schema.json.
import { z } from 'zod';
import { Severity } from '../../model/schema.js';

const HintName = z.enum(['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint']);

/** Safe in a rule id, a file name and a URL. */
const Id = z
  .string()
  .max(64)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'expected lowercase letters, digits and single hyphens, e.g. "my-team"');

/** A hint absent or not a boolean never matches. */
const Forbidden = z.strictObject({
  when: z
    .strictObject({
      readOnlyHint: z.boolean(),
      destructiveHint: z.boolean(),
      idempotentHint: z.boolean(),
      openWorldHint: z.boolean(),
    })
    .partial()
    .refine((w) => Object.keys(w).length > 0, 'name at least one hint'),
  message: z.string().min(1).max(500),
});

export const Requirement = z
  .strictObject({
    /** The finding's rule id is `<profile id>/<requirement id>`. */
    id: Id,
    severity: Severity,
    title: z.string().min(1).max(200),
    /** By readOnlyHint as received: only `true` is read-only. */
    appliesTo: z.enum(['all', 'read-only', 'not-read-only']).optional(),
    /** Absent, null or a string fails. */
    explicitHints: z.array(HintName).min(1).max(4).optional(),
    titleRequired: z.enum(['annotations', 'either', 'top-level']).optional(),
    nameMaxLength: z.number().int().min(1).max(1_024).optional(),
    forbidden: z.array(Forbidden).min(1).max(20).optional(),
    /**
     * A tool must tell whether a retry repeats its effect: `idempotentHint` given (true or false), a key
     * argument, or its description saying so (retry, idempotent, duplicate, repeat).
     */
    retryDisclosure: z.literal(true).optional(),
    /** `idemscan probe` only: hints that claim more than the experiment saw (`probe.agreement: overstates`) fail. */
    matchesBehaviour: z.literal(true).optional(),
    docs: z
      .url({ protocol: /^https$/ })
      .max(2_000)
      .optional(),
  })
  .refine(
    (r) =>
      r.explicitHints || r.titleRequired || r.nameMaxLength || r.forbidden || r.retryDisclosure || r.matchesBehaviour,
    'a requirement checks something: give explicitHints, titleRequired, nameMaxLength, forbidden, retryDisclosure or matchesBehaviour',
  );

export const Profile = z
  .strictObject({
    $schema: z.string().max(2_000).optional(),
    id: Id,
    title: z.string().min(1).max(200),
    source: z.array(z.url({ protocol: /^https?$/ }).max(2_000)).max(20),
    requirements: z.array(Requirement).min(1).max(100),
  })
  .refine((p) => new Set(p.requirements.map((r) => r.id)).size === p.requirements.length, {
    message: 'requirement ids must be unique',
    path: ['requirements'],
  });

export type Requirement = z.infer<typeof Requirement>;
export type Profile = z.infer<typeof Profile>;

export function profileJsonSchema(): unknown {
  return z.toJSONSchema(Profile, { target: 'draft-2020-12', io: 'input' });
}
