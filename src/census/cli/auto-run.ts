/** `idemscan probe-census --auto --targets FILE` (docs/PROBE.md): the behaviour census without plans. */
import path from 'node:path';
import { installTargets } from '../../app/packages/install.js';
import { TOOL_VERSION } from '../../model/version.js';
import { plural } from '../../model/verdicts.js';
import { msg, show } from '../../render/message.js';
import { EXIT } from '../../shell/exit.js';
import * as say from '../../shell/say.js';
import { watchSignals } from '../../shell/signals.js';
import { autoCensusTargets, otherMethodParts, runAutoCensus } from '../behaviour/auto-census.js';
import { behaviourTable } from '../behaviour/behaviour-rows.js';
import { serverHead, serverLine } from '../behaviour/behaviour-lines.js';
import { NETWORK, writeTable } from '../behaviour/probe-census.js';
import { DEFAULT_OUT } from '../behaviour/probe-census-prepare.js';
import { InputError } from '../../model/input-error.js';
import type { ProbeCensusFlags } from './flags.js';

export async function autoCensusCommand(flags: ProbeCensusFlags): Promise<void> {
  if (flags.targets === undefined)
    throw new InputError('probe-census --auto needs --targets FILE (a target list, e.g. targets/npm-census.json)');
  const { targets, skipped, notStdio } = await autoCensusTargets(flags.targets, flags.shard);
  const out = flags.out ?? DEFAULT_OUT;
  say.lines(
    msg`idemscan probe-census: will call every tool of ${plural(targets.length, 'server')} of ${show.path(flags.targets)}${flags.shard ? ` (shard ${flags.shard})` : ''} twice, each on a fresh server inside the sandbox (bubblewrap, loopback-only network), with arguments made from its schema, ${flags.concurrency} servers at a time; their effects are real, kept to scratch spaces that are then removed${notStdio ? `; ${plural(notStdio, 'remote server')} left out` : ''}${skipped ? `; ${plural(skipped, 'list entry', 'list entries')} skipped as a scan skips them` : ''}\n`,
    true,
  );
  const interrupt = watchSignals();
  if (flags.install)
    await installTargets(
      targets,
      { concurrency: flags.concurrency, cacheDir: flags.cacheDir, signal: interrupt.signal },
      () => {},
    );
  const settings = {
    list: flags.targets,
    out,
    concurrency: flags.concurrency,
    budgetMs: flags.budget,
    cacheDir: flags.cacheDir,
    timeoutMs: flags.timeout,
    signal: interrupt.signal,
  };
  const auto = await runAutoCensus(targets, settings, {
    say,
    onEvent: (e) => {
      if (e.reused) return;
      if (e.server.error !== undefined) say.tell(msg`${serverHead(e.server)}: ${show.message(e.server.error)}`);
      else if (!flags.quiet) process.stdout.write(serverLine(e.server, e.rows).text + '\n');
    },
  });
  const plan = await otherMethodParts(path.join(out, 'behaviour.json'), 'auto', say);
  const head = {
    generatedAt: new Date().toISOString(),
    idemscanVersion: TOOL_VERSION,
    library: plan.method?.library ?? 'none',
    targets: flags.targets,
    network: NETWORK,
    node: process.version,
  };
  const table = behaviourTable(head, [...plan.parts, ...auto]);
  const written = await writeTable(table, out, say);
  for (const file of written.files) say.note(msg`wrote ${show.path(file)}`);
  const probed = auto.filter((p) => p.server.error === undefined).length;
  if (interrupt.interrupted) process.exitCode = EXIT.interrupted;
  else if (auto.length > 0 && probed === 0) process.exitCode = EXIT.allFailed;
  else process.exitCode = written.failed ? EXIT.outputFailed : EXIT.ok;
}
