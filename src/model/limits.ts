// LIMITS: what a report keeps of server text, cut on arrival. Reporters' display widths stay in render/.

const MiB = 1024 * 1024;

export const DEFAULTS = {
  /** From spawn or first request to the last page. */
  timeoutMs: 30_000,
  /** How long `server/discover` may stay silent before `initialize`. */
  probeTimeoutMs: 2_000,
  maxPages: 64,
  /** `probe --auto`: every experiment of one server together (each tool starts its own server). */
  autoBudgetMs: 15 * 60_000,
  maxTools: 5_000,
  maxFrameBytes: 16 * MiB,
  // Four servers at the default concurrency keep 128 MiB at most; a 5,000-tool server with
  // ordinary schemas needs about a tenth of it.
  maxServerBytes: 32 * MiB,
  stderrTailBytes: 4 * 1024,
  killGraceMs: 2_000,
  /** A stdio server's start-up is CPU. */
  concurrency: 4,
  /** A remote's listing is mostly waiting. */
  httpConcurrency: 64,
  signInTimeoutMs: 120_000,
} as const;

export const LIMITS = {
  /** What the classifier reads of a name. */
  readNameChars: 1_024,
  nameChars: 256,
  /** Beyond it only the scalar hints are kept. */
  annotationsJson: 4_000,
  /** Beyond it only the scalar fields are kept. */
  capabilitiesJson: 16_000,
  keyPathChars: 512,
  /** Matches `gate.matches` names; the rest are counted. */
  gateMatches: 50,
  errorChars: 500,
  /** A JSON-RPC error's message or a stderr tail, quoted. */
  quotedChars: 300,
  /** What a terminal message shows of each value it quotes, escaped then cut (render/message.ts). */
  shown: {
    name: 80,
    path: 300,
    key: 120,
    url: 200,
    reason: 400,
    /** Words not ours: a library error's detail, a warning. */
    message: 1_000,
  },
} as const;
