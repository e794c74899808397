/**
 * The defaults and size bounds written once: the library's `scan()` options, the CLI's flags and
 * the connector all read DEFAULTS; LIMITS are the sizes a report keeps of what a server sent (cut
 * with `bounded()`, model/bounds.ts, on arrival), and `LIMITS.shown` what a message on the terminal
 * quotes of each value (render/message.ts). Display widths of the reporters are presentation and
 * stay in render/.
 */

const MiB = 1024 * 1024;

export const DEFAULTS = {
  /** From spawn (or first request) to the last page (`--timeout`). */
  timeoutMs: 30_000,
  /** How long `server/discover` may stay silent before `initialize` (`--probe-timeout`). */
  probeTimeoutMs: 2_000,
  /** `--max-pages`. */
  maxPages: 64,
  maxTools: 5_000,
  maxFrameBytes: 16 * MiB,
  // Four servers at the default concurrency keep 128 MiB at most; a 5,000-tool server with
  // ordinary schemas needs about a tenth of it.
  maxServerBytes: 32 * MiB,
  stderrTailBytes: 4 * 1024,
  killGraceMs: 2_000,
  /** stdio servers started, or packages installed, at once (`--concurrency`): their start-up is CPU. */
  concurrency: 4,
  /** HTTP servers scanned at once (`--http-concurrency`): a remote's listing is mostly waiting. */
  httpConcurrency: 64,
  /** How long an OAuth sign-in in the browser may take. */
  signInTimeoutMs: 120_000,
} as const;

export const LIMITS = {
  /** Characters of a name the classifier reads (tool and argument names: words, keys, the naming rule). */
  readNameChars: 1_024,
  /** A tool's or a key argument's name, and a tool's title, as kept in the report. */
  nameChars: 256,
  /** The JSON of a tool's annotations beyond which only its scalar hints are kept. */
  annotationsJson: 4_000,
  /** The JSON of a server's capabilities beyond which only its scalar fields are kept. */
  capabilitiesJson: 16_000,
  /** A key argument's JSONPath. */
  keyPathChars: 512,
  /** The tools (and servers) `--fail-on` matched that the report's `gate.matches` names; the rest are counted. */
  gateMatches: 50,
  /** An error's words in a failure message. */
  errorChars: 500,
  /** A JSON-RPC error's message, or a server's stderr tail, quoted in a failure or finding. */
  quotedChars: 300,
  /**
   * Characters a message on the terminal (an error, a warning, a progress line) shows of each value
   * it quotes, by what the value is: escaped first, then cut (render/message.ts `msg`).
   */
  shown: {
    /** A name: a server's, a tool's, a rule's, an entry's, a variable's; a version; a word given on the command line. */
    name: 80,
    /** A file or directory path. */
    path: 300,
    /** An idempotency key as a probe sent it. */
    key: 120,
    /** A URL, or a command-line word that may be one. */
    url: 200,
    /** One cause: why an entry was skipped, what an error said. */
    reason: 400,
    /** A whole message from elsewhere: a library error's detail, a warning, words not ours. */
    message: 1_000,
  },
} as const;
