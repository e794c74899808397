/** What stands in a report where a secret was. */
export const REDACTED = '[REDACTED]';
