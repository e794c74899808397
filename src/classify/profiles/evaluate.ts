// Over the tool as received, since a directory's review reads what the server sent; only booleans count.
import type { Finding, ToolReport } from '../../model/schema.js';
import { describeHint, receivedAnnotations } from '../hints.js';
import type { Profile, Requirement } from './schema.js';

export const ruleId = (profile: Pick<Profile, 'id'>, req: Pick<Requirement, 'id'>): string => `${profile.id}/${req.id}`;

/** Every finding of `profile` on the raw tool entry `raw`, named `tool` in the report. */
export function evaluateProfile(profile: Profile, raw: Record<string, unknown>, tool: string): Finding[] {
  const annotations = receivedAnnotations(raw);
  const readOnly = annotations?.readOnlyHint === true;
  const out: Finding[] = [];
  for (const req of profile.requirements) {
    const applies = req.appliesTo === 'read-only' ? readOnly : req.appliesTo === 'not-read-only' ? !readOnly : true;
    if (!applies) continue;
    const add = (message: string, evidence: string) =>
      out.push({
        rule: ruleId(profile, req),
        severity: req.severity,
        message: `${message} (${profile.title}: ${req.title})`,
        tool,
        evidence,
      });

    if (req.explicitHints) {
      const missing = req.explicitHints.filter((h) => typeof annotations?.[h] !== 'boolean');
      if (missing.length > 0) {
        const what = missing.map((h) =>
          annotations && Object.hasOwn(annotations, h) ? `${h} is ${describeHint(annotations[h])}` : `${h} is missing`,
        );
        add(
          `${what.join(', ')}: set ${missing.length > 1 ? 'each' : 'it'} to true or false`,
          missing.length > 1 ? 'annotations' : `annotations.${missing[0]}`,
        );
      }
    }
    if (req.titleRequired) {
      const inside = hasText(annotations?.title);
      const top = hasText(raw.title);
      const ok = req.titleRequired === 'annotations' ? inside : req.titleRequired === 'top-level' ? top : inside || top;
      if (!ok) {
        const where =
          req.titleRequired === 'annotations'
            ? 'annotations.title'
            : req.titleRequired === 'top-level'
              ? 'title'
              : 'title or annotations.title';
        const note =
          req.titleRequired === 'annotations' && top
            ? ': the top-level title is there, but this requirement reads the one inside annotations'
            : '';
        add(`no ${where}${note}`, req.titleRequired === 'top-level' ? 'title' : 'annotations.title');
      }
    }
    if (req.nameMaxLength !== undefined) {
      const length = typeof raw.name === 'string' ? raw.name.length : 0; // UTF-16 units, as JavaScript counts
      if (length > req.nameMaxLength)
        add(`the name is ${length} characters long, more than ${req.nameMaxLength}`, 'name');
    }
    for (const rule of req.forbidden ?? []) {
      const given = Object.entries(rule.when);
      if (given.every(([h, v]) => annotations?.[h] === v)) {
        add(`${rule.message}: ${given.map(([h, v]) => `${h} is ${String(v)}`).join(' and ')}`, 'annotations');
      }
    }
  }
  return out;
}

function hasText(value: unknown): boolean {
  return typeof value === 'string' && value.trim() !== '';
}

/** `matchesBehaviour` requirements, once a probe has judged the tool's hints against what it did. */
export function behaviourFindings(profiles: readonly Profile[], tool: ToolReport): Finding[] {
  const probes = tool.probes ?? (tool.probe ? [tool.probe] : []);
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
