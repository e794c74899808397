/** The one way a finding is made: its id names a catalogue entry, which gives the usual severity. */
import type { Finding, Severity } from './schema.js';
import { ruleEntry, type RuleId } from './catalogue.js';

/** `severity` only where one finding differs from the rule's usual one. */
export interface FindingExtra {
  severity?: Severity;
  tool?: string;
  evidence?: string;
  fix?: Finding['fix'];
}

export function finding(id: RuleId, message: string, extra: FindingExtra = {}): Finding {
  const { severity, tool, evidence, fix } = extra;
  return {
    rule: id,
    severity: severity ?? ruleEntry(id).severity,
    message,
    ...(tool === undefined ? {} : { tool }),
    ...(evidence === undefined ? {} : { evidence }),
    ...(fix === undefined ? {} : { fix }),
  };
}
