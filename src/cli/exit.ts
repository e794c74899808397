/** Documented exit codes (README, "Exit codes"). */
export const EXIT = {
  ok: 0,
  failOn: 1,
  usage: 2,
  allFailed: 3,
} as const;

/** Bad flags or target files: exit 2 with the message, nothing scanned. */
export class UsageError extends Error {}
