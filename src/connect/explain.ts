import { boundedTail } from '../model/bounds.js';
import { RULE } from '../model/catalogue.js';
import { finding } from '../model/finding.js';
import { LIMITS } from '../model/limits.js';
import { plural } from '../model/verdicts.js';
import type { Channel } from './channel.js';
import type { Observation } from './connect-options.js';
import { ScanFailure } from './failure.js';
import type { StdioChannel } from './stdio.js';

/** Not JSON-RPC on stdout, and why it ended (stderr). */
export function explainStdio(obs: Observation, stdio: StdioChannel): void {
  const noise = stdio.noise.lines;
  const were = noise === 1 ? 'was' : 'were';
  if (obs.failure?.kind === 'timeout' && !obs.session && noise > 0) {
    // It did talk, just not JSON-RPC: that is a protocol failure, not a slow server.
    obs.failure = {
      kind: 'protocol',
      message: `no JSON-RPC answer; ${plural(noise, 'line')} on stdout ${were} something else`,
    };
  }
  const tail = stdio.stderrTail.text().trim();
  // A listing cut short by a crash: its stderr says why.
  const incomplete = obs.findings.find((f) => f.rule === RULE.toolListIncomplete);
  if (incomplete && tail) incomplete.message += `; stderr ends: ${boundedTail(tail, LIMITS.quotedChars)}`;
  if (obs.failure && tail) obs.failure.stderr = tail;
  if (noise > 0) {
    const first = JSON.stringify(stdio.noise.first);
    const message = `${plural(noise, 'line')} on stdout ${were} not JSON-RPC (first: ${first}); stdout is reserved for protocol messages`;
    obs.findings.push(finding(RULE.stdoutNoise, message, { evidence: 'stdout' }));
  }
}

/** Still starting when time ran out, not stalled after answering: only the first is helped by more time. */
export function stillStarting(timeout: ScanFailure, channel: Channel, timeoutMs: number): ScanFailure {
  if (!channel.starting) return timeout;
  return new ScanFailure(
    'timeout',
    `no answer within ${timeoutMs / 1000} s; it was still starting: try --timeout ${Math.max(60_000, timeoutMs * 2)}`,
  );
}
