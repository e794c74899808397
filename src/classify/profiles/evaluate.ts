// Over the tool as received, since a directory's review reads what the server sent; only booleans count.
import { probesOf } from '../../model/probe-cases.js';
import type { Finding, ToolReport } from '../../model/schema.js';
import { describeHint, receivedAnnotations } from '../hints.js';
import { findKeyArguments } from '../keys.js';
import { boundedDescription } from '../../model/bounds.js';
import type { Profile, Requirement } from './schema.js';

export const ruleId = (profile: Pick<Profile, 'id'>, req: Pick<Requirement, 'id'>): string => `${profile.id}/${req.id}`;

/** One failed requirement: what is wrong, and where in the tool entry. */
type Miss = [message: string, evidence: string];

interface Entry {
  raw: Record<string, unknown>;
  annotations: Record<string, unknown> | undefined;
}

/** Every finding of `profile` on the raw tool entry `raw`, named `tool` in the report. */
export function evaluateProfile(profile: Profile, raw: Record<string, unknown>, tool: string): Finding[] {
  const entry = { raw, annotations: receivedAnnotations(raw) };
  const readOnly = entry.annotations?.readOnlyHint === true;
  return profile.requirements.flatMap((req) => {
    const applies = req.appliesTo === 'read-only' ? readOnly : req.appliesTo === 'not-read-only' ? !readOnly : true;
    if (!applies) return [];
    return missesOf(req, entry).map(([message, evidence]) => ({
      rule: ruleId(profile, req),
      severity: req.severity,
      message: `${message} (${profile.title}: ${req.title})`,
      tool,
      evidence,
    }));
  });
}

function missesOf(req: Requirement, entry: Entry): Miss[] {
  const misses: Miss[] = [];
  if (req.explicitHints) misses.push(...missingHints(req.explicitHints, entry.annotations));
  if (req.titleRequired) misses.push(...missingTitle(req.titleRequired, entry));
  if (req.nameMaxLength !== undefined) {
    const length = typeof entry.raw.name === 'string' ? entry.raw.name.length : 0; // UTF-16 units, as JavaScript counts
    if (length > req.nameMaxLength)
      misses.push([`the name is ${length} characters long, more than ${req.nameMaxLength}`, 'name']);
  }
  if (req.retryDisclosure && !disclosesRetry(entry))
    misses.push([
      'a write that says nothing of retries: no idempotentHint, no key argument, and its description does not say whether a retry repeats the effect',
      'annotations.idempotentHint',
    ]);
  for (const rule of req.forbidden ?? []) {
    const given = Object.entries(rule.when);
    if (given.every(([h, v]) => entry.annotations?.[h] === v))
      misses.push([`${rule.message}: ${given.map(([h, v]) => `${h} is ${String(v)}`).join(' and ')}`, 'annotations']);
  }
  return misses;
}

function missingHints(hints: readonly string[], annotations: Record<string, unknown> | undefined): Miss[] {
  const missing = hints.filter((h) => typeof annotations?.[h] !== 'boolean');
  if (missing.length === 0) return [];
  const what = missing.map((h) =>
    annotations && Object.hasOwn(annotations, h) ? `${h} is ${describeHint(annotations[h])}` : `${h} is missing`,
  );
  return [
    [
      `${what.join(', ')}: set ${missing.length > 1 ? 'each' : 'it'} to true or false`,
      missing.length > 1 ? 'annotations' : `annotations.${missing[0]}`,
    ],
  ];
}

function missingTitle(where: NonNullable<Requirement['titleRequired']>, entry: Entry): Miss[] {
  const inside = hasText(entry.annotations?.title);
  const top = hasText(entry.raw.title);
  const ok = where === 'annotations' ? inside : where === 'top-level' ? top : inside || top;
  if (ok) return [];
  const field =
    where === 'annotations' ? 'annotations.title' : where === 'top-level' ? 'title' : 'title or annotations.title';
  const note =
    where === 'annotations' && top
      ? ': the top-level title is there, but this requirement reads the one inside annotations'
      : '';
  return [[`no ${field}${note}`, where === 'top-level' ? 'title' : 'annotations.title']];
}

/** Words by which a description says what a retry does; lower case, matched as substrings. */
const RETRY_WORDS = ['retry', 'retries', 'idempoten', 'duplicate', 'repeat', 'twice', 'dedup', 'same key'];

/** idempotentHint given either way, a strong key argument, or the description on retries. */
function disclosesRetry({ raw, annotations }: Entry): boolean {
  if (typeof annotations?.idempotentHint === 'boolean') return true;
  if (findKeyArguments(raw.inputSchema).some((k) => k.confidence === 'strong')) return true;
  const text = typeof raw.description === 'string' ? boundedDescription(raw.description).toLowerCase() : '';
  return RETRY_WORDS.some((w) => text.includes(w));
}

function hasText(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

/** `matchesBehaviour` requirements, once a probe has judged the tool's hints against what it did. */
export function behaviourFindings(profiles: readonly Profile[], tool: ToolReport): Finding[] {
  const probes = probesOf(tool);
  if (!probes.some((p) => p.agreement === 'overstates')) return [];
  return profiles.flatMap((profile) =>
    profile.requirements
      .filter((req) => req.matchesBehaviour)
      .map((req) => ({
        rule: ruleId(profile, req),
        severity: req.severity,
        message: `the hints claim what the probe saw the tool not do (${profile.title}: ${req.title})`,
        tool: tool.name,
        evidence: 'probe.agreement',
      })),
  );
}
