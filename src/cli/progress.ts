/**
 * Progress on stderr while `scan`, `audit` and `install` run: a line per server or package, and on a
 * terminal one status line redrawn in place. Every line is made by `msg`, so server text is escaped.
 */
import type { InstallResult } from '../app/packages/install.js';
import type { ProgressEvent } from '../app/scan/scan-inputs.js';
import { boundedTail } from '../model/bounds.js';
import { idemscanCommand } from '../model/invocation.js';
import { msg, show } from '../render/message.js';
import { visibleEscaper } from '../render/terminal.js';
import { cutEnd } from '../render/width.js';
import type { Unscanned } from '../app/interrupt.js';

export interface Terminal {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Escapes what could rewrite the screen but keeps line breaks. */
const multiline = visibleEscaper(' \n');

/** How often the status line is redrawn on a terminal. */
const REDRAW_MS = 250;
/** Running servers named in the status line; the rest are counted. */
const SHOWN_RUNNING = 3;
/** How often a scan logs which servers it still waits for, when stderr is not a terminal. */
const PLAIN_STATUS_MS = 30_000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * One status line at the bottom of a terminal: `line()` prints above it, `redraw()` rewrites it.
 * Off a terminal it only prints the lines.
 */
export class StatusLine {
  private shown = false;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly out: Terminal,
    private readonly status: () => string,
    /** Off a terminal (a CI log), print the status as a plain line this often, when it has one. */
    private readonly plainEveryMs?: number,
  ) {}

  get live(): boolean {
    return this.out.isTTY === true;
  }

  start(): void {
    if (this.timer) return;
    if (this.live) this.timer = setInterval(() => this.redraw(), REDRAW_MS).unref();
    else if (this.plainEveryMs) this.timer = setInterval(() => this.plain(), this.plainEveryMs).unref();
  }

  /** A log has no line redrawn in place: now and then one says the run is alive and what it waits for. */
  private plain(): void {
    const text = this.status();
    if (text) this.out.write(`${text}\n`);
  }

  /** Prints `text` above the status line (on `stream`, the terminal's other stream if need be). */
  line(text: string, stream: Terminal = this.out): void {
    this.clear();
    stream.write(`${text}\n`);
    this.redraw();
  }

  redraw(): void {
    if (!this.live || !this.timer) return;
    const width = Math.max(20, (this.out.columns ?? 80) - 1); // the last column would wrap on some terminals
    this.out.write(`\r\x1b[K${cutEnd(this.status(), width)}`);
    this.shown = true;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.clear();
    this.timer = undefined;
  }

  private clear(): void {
    if (this.shown) this.out.write('\r\x1b[K');
    this.shown = false;
  }
}

/** `[########............] 12/150 installed, 1 failed` */
export function bar(done: number, total: number, width = 20): string {
  const filled = total > 0 ? Math.round((done / total) * width) : width;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

/** One line per package, as `install` has always printed them. */
function installLine(r: InstallResult): string {
  const scripts = r.scripts ? msg`, install scripts in ${show.path(r.scripts)}` : msg``;
  const took = r.ms ? msg` (${seconds(r.ms)}${scripts})` : msg` (cached)`;
  return msg`${r.ok ? 'ok    ' : 'FAILED'} ${show.path(r.spec)}${took}`.text;
}

/** Installs: a line per package as it finishes (to `lines`), and a bar with counts on a terminal. */
export class InstallProgress {
  private done = 0;
  private failed = 0;
  private readonly status: StatusLine;

  constructor(
    private readonly total: number,
    private readonly lines: Terminal,
    err: Terminal,
  ) {
    // Lines and bar share one screen when both streams are the terminal: the bar is cleared first.
    this.status = new StatusLine(
      err,
      () =>
        `${bar(this.done, this.total)} ${this.done}/${this.total} installed${this.failed ? `, ${this.failed} failed` : ''}`,
    );
    this.status.start();
    this.status.redraw();
  }

  onInstalled(r: InstallResult): void {
    this.done += 1;
    if (!r.ok) this.failed += 1;
    this.status.line(installLine(r), this.lines);
  }

  /** A message on stderr (npm's own, several lines) that keeps the bar below it. */
  message(text: string): void {
    this.status.line(multiline(boundedTail(text.trimEnd(), 2_000)));
  }

  stop(): void {
    this.status.stop();
  }
}

interface Running {
  name: string;
  started: number;
}

/** The scan: a line per server as it finishes, and on a terminal which servers are running. */
export class ScanProgress {
  private readonly running = new Map<number, Running>();
  private readonly finished = new Set<number>();
  private failed = 0;
  private total = 0;
  private install: InstallProgress | undefined;
  private readonly status: StatusLine;

  constructor(
    private readonly err: Terminal,
    private readonly quiet = false,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.status = new StatusLine(
      err,
      () => (err.isTTY || this.running.size > 0 ? this.statusText() : ''),
      PLAIN_STATUS_MS,
    );
  }

  /** For `scan({ onProgress })`. */
  readonly onEvent = (e: ProgressEvent): void => {
    switch (e.type) {
      case 'warning':
        this.status.line(msg`idemscan: ${show.message(e.message)}`.text); // even with -q: each says the scan is less than asked
        return;
      case 'install': {
        if (this.quiet) return;
        const packages = `${e.packages.length} pinned package${e.packages.length === 1 ? '' : 's'}`;
        const into = msg`idemscan: installing ${packages} into ${show.path(e.cacheDir)} (once; \`${idemscanCommand('install')}\` does it ahead)`;
        this.status.line(into.text);
        this.install = new InstallProgress(e.packages.length, this.err, this.err);
        return;
      }
      case 'installed':
        this.install?.onInstalled(e.result);
        return;
      case 'start':
        this.install?.stop();
        this.install = undefined;
        this.total = e.total;
        this.running.set(e.index, { name: e.target, started: this.now() });
        if (!this.quiet) this.status.start();
        return;
      case 'done':
        return this.onDone(e);
    }
  };

  private onDone(e: Extract<ProgressEvent, { type: 'done' }>): void {
    const target = e.target ?? -1;
    const ran = this.running.get(target);
    this.running.delete(target);
    this.finished.add(target);
    const s = e.server;
    if (s.status === 'failed') this.failed += 1;
    if (this.quiet) return;
    const took = seconds(s.durationMs || (ran ? this.now() - ran.started : 0));
    const what =
      s.status === 'ok'
        ? msg`ok ${show.name(s.name)} (${took}, ${s.tools.length} tool${s.tools.length === 1 ? '' : 's'})`
        : msg`failed ${show.name(s.name)} (${took}): ${s.failure?.kind ?? 'failed'}`;
    this.status.line(msg`[${e.index + 1}/${e.total}] ${what}`.text);
  }

  private statusText(): string {
    const now = this.now();
    const running = [...this.running.values()].sort((a, b) => a.started - b.started);
    const names = running
      .slice(0, SHOWN_RUNNING)
      .map((r) => msg`${show.name(r.name)} ${seconds(now - r.started)}`.text);
    const more = running.length > SHOWN_RUNNING ? `, +${running.length - SHOWN_RUNNING} more` : '';
    const counts = `${this.finished.size}/${this.total} scanned${this.failed ? `, ${this.failed} failed` : ''}`;
    return `${counts}${running.length ? `; running: ${names.join(', ')}${more}` : ''}`;
  }

  /** Targets that were not scanned: stopped while running (with how long they ran) or never started. */
  unscanned(targets: readonly { name: string }[]): Unscanned[] {
    const now = this.now();
    return targets.flatMap((t, i) => {
      if (this.finished.has(i)) return [];
      const ran = this.running.get(i);
      return [{ name: t.name, ranMs: ran ? now - ran.started : undefined }];
    });
  }

  stop(): void {
    this.install?.stop();
    this.status.stop();
  }
}
