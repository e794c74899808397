/** The exit codes (docs/REFERENCE.md); any `InputError` is `usage`, mapped once in cli/main.ts. */
export const EXIT = {
  ok: 0,
  failOn: 1,
  usage: 2,
  allFailed: 3,
  /** A report file could not be written after the scan (it was saved to a fallback file instead). */
  outputFailed: 4,
  /** Stopped by a signal (SIGINT, SIGTERM): 128 + 2, as a shell reports Ctrl-C; the report of what was done is written. */
  interrupted: 130,
} as const;
