/** A stdio server in its own process group. Why not the SDK's transport: docs/INTERNALS.md. */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { countOpeners, MAX_FRAME_NODES } from './budget.js';
import type { Channel, ChannelEvents } from './channel.js';
import { bounded } from '../model/bounds.js';
import { ScanFailure } from './failure.js';
import { TailBuffer } from './tail.js';
import { isDirectory } from '../targets/file-kind.js';

export interface StdioOptions {
  command: string;
  args: string[];
  /** The whole environment of the process: nothing else of idemscan's is added. */
  env: Record<string, string>;
  cwd?: string;
  maxFrameBytes: number;
  stderrTailBytes: number;
  killGraceMs: number;
}

/** Every live process group, so Ctrl-C or an early exit can end them all. */
const liveGroups = new Set<number>();

export function killAllServers(): void {
  for (const pgid of liveGroups) signalGroup(pgid, 'SIGKILL');
}

process.once('exit', () => killAllServers());

export class StdioChannel implements Channel {
  readonly kind = 'stdio';
  readonly events: ChannelEvents = {};
  readonly stderrTail: TailBuffer;
  /** Lines on stdout that were not JSON-RPC (banners, logs): counted, first one kept. */
  noise = { lines: 0, first: undefined as string | undefined };
  frames = 0;
  private child?: ChildProcess;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private pendingNodes = 0;
  private exited?: Promise<void>;
  private drained?: Promise<void>;
  private closing = false;

  constructor(private readonly opts: StdioOptions) {
    this.stderrTail = new TailBuffer(opts.stderrTailBytes);
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Started, still running, and not a word on stdout yet: a server still starting up. */
  get starting(): boolean {
    return (
      !!this.child?.pid &&
      this.child.exitCode === null &&
      this.child.signalCode === null &&
      !this.closing &&
      this.frames === 0 &&
      this.noise.lines === 0
    );
  }

  async start(): Promise<void> {
    // spawn reports a missing cwd as ENOENT of the command, which reads as a missing program.
    if (this.opts.cwd !== undefined && !isDirectory(this.opts.cwd)) {
      throw new ScanFailure(
        'spawn',
        `cannot start "${this.opts.command}": its cwd "${this.opts.cwd.slice(0, 500)}" does not exist or is not a directory`,
      );
    }
    const child = spawn(this.opts.command, this.opts.args, {
      env: this.opts.env,
      cwd: this.opts.cwd,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true, // its own process group, so the whole tree can be signalled
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (err: NodeJS.ErrnoException) => {
        reject(new ScanFailure('spawn', `cannot start "${this.opts.command}": ${err.code ?? err.message}`));
      });
    });
    const pgid = child.pid!;
    liveGroups.add(pgid);
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    // 'exit' can precede the last of stdout and stderr: reported once they drain, or soon after if a child holds them.
    child.once('exit', (code, signal) => {
      const report = () => {
        if (this.closing) return;
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        this.events.onclose?.(new ScanFailure('exited', `the server ${how}`));
      };
      const timer = setTimeout(report, 300);
      child.once('close', () => {
        clearTimeout(timer);
        report();
      });
    });
    this.drained = new Promise((resolve) => child.once('close', () => resolve()));
    child.stdout!.on('data', (chunk: Buffer) => this.onStdout(chunk));
    child.stderr!.on('data', (chunk: Buffer) => this.stderrTail.push(chunk));
    // A server that dies mid-write must not crash the scanner with EPIPE.
    child.stdin!.on('error', () => {});
  }

  async send(message: unknown): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || stdin.destroyed) throw new ScanFailure('exited', 'the server closed its input');
    // Settles once the pipe has taken the line: a server that stops reading holds its replies in flight (replies.ts).
    await new Promise<void>((resolve) => stdin.write(JSON.stringify(message) + '\n', () => resolve()));
  }

  private onStdout(chunk: Buffer): void {
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      this.pending.push(chunk.subarray(start, nl));
      if (this.pendingNodes + countOpeners(chunk, start, nl) > MAX_FRAME_NODES)
        return this.tooLarge(`had more than ${MAX_FRAME_NODES} objects and arrays`);
      const line = Buffer.concat(this.pending).toString('utf8');
      this.pending = [];
      this.pendingBytes = 0;
      this.pendingNodes = 0;
      this.onLine(line);
      start = nl + 1;
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
      this.pendingBytes += chunk.length - start;
      this.pendingNodes += countOpeners(chunk, start, chunk.length);
      if (this.pendingBytes > this.opts.maxFrameBytes) this.tooLarge(`exceeded ${this.opts.maxFrameBytes} bytes`);
      else if (this.pendingNodes > MAX_FRAME_NODES)
        this.tooLarge(`had more than ${MAX_FRAME_NODES} objects and arrays`);
    }
  }

  /** A frame too large to parse (in bytes, or in objects: 16 MB of `{}` is 300 MB parsed) ends the connection. */
  private tooLarge(why: string): void {
    this.pending = [];
    this.pendingBytes = 0;
    this.pendingNodes = 0;
    this.events.onclose?.(new ScanFailure('protocol', `a message on stdout ${why}`));
    void this.close();
  }

  private onLine(raw: string): void {
    const line = raw.trim();
    if (!line) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      parsed = undefined;
    }
    if (parsed && typeof parsed === 'object' && (parsed as { jsonrpc?: unknown }).jsonrpc === '2.0') {
      this.frames++;
      this.events.onmessage?.(parsed as Record<string, unknown>);
      return;
    }
    // Goodbye messages after we asked it to stop ("Received SIGTERM...") are not the server's fault.
    if (this.closing) return;
    this.noise.lines++;
    this.noise.first ??= bounded(line, 200);
  }

  async close(): Promise<void> {
    if (this.closing || !this.child?.pid) return;
    this.closing = true;
    const pgid = this.child.pid;
    this.child.stdin?.end();
    signalGroup(pgid, 'SIGTERM');
    const deadline = Date.now() + this.opts.killGraceMs;
    // Most servers exit at once: wait for that before reading all of /proc for the rest of the group.
    await Promise.race([this.exited, sleep(this.opts.killGraceMs, true)]);
    while (groupAlive(pgid) && Date.now() < deadline) await sleep(25);
    if (groupAlive(pgid)) signalGroup(pgid, 'SIGKILL');
    await Promise.race([this.exited, sleep(this.opts.killGraceMs, true)]);
    await Promise.race([this.drained, sleep(200, true)]); // the last words on stderr
    liveGroups.delete(pgid);
    this.child.stdout?.destroy();
    this.child.stderr?.destroy();
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  return hasLiveMember(pgid);
}

/** Reparented zombies answer kill(-pgid, 0) until a slow init reaps them: a group of zombies only is dead. */
function hasLiveMember(pgid: number): boolean {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return true;
  }
  return pids.some((pid) => {
    try {
      // The kernel's own line, not a file anyone wrote: read as it is, not through io/read.ts.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[2]) === pgid && fields[0] !== 'Z';
    } catch {
      return false;
    }
  });
}

/** `unref`: a wait that must not keep the process alive once everything else is done. */
const sleep = (ms: number, unref = false) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    if (unref) t.unref();
  });
