/** Which containment the stdio servers ran in (docs/SANDBOX.md). */
import type { Shown } from '../model/shown.js';
import { joinShown, msg, show } from './message.js';

/** Each `target.sandbox` mode in words (docs/SANDBOX.md); an unlisted mode is shown by its id. */
const SANDBOX_WORDS: Record<string, string> = {
  bubblewrap: 'bubblewrap (no network, no home directories, read-only system)',
  netns: 'network namespace only (no network but loopback; files and HOME are not protected)',
  none: 'none (they ran with your rights, files and network included; --sandbox contains them)',
  container: 'the container engine (docker or podman: no network, no capabilities, read-only root)',
  'none-host-proc':
    "none, not even a /proc of their own (they could see this machine's processes and their environments; --sandbox contains them)",
};

/** As root without --sandbox the PID namespace is no sandbox, and under it the sandbox is all there is. */
export function sandboxLines(
  counts: ReadonlyMap<string, number>,
  sandboxed: boolean | undefined,
  asRoot: boolean,
  writable: readonly string[] = [],
): Shown[] {
  if (counts.size === 0) return [];
  const servers = (n: number) => `${n} stdio server${n === 1 ? '' : 's'}`;
  const words = (mode: string) => msg`${SANDBOX_WORDS[mode] ?? show.name(mode)}`;
  const [only] = counts.size === 1 ? [...counts] : [];
  const each = [...counts].map(([mode, n]) => msg`${words(mode)} for ${servers(n)}`);
  const lines = [
    only ? msg`sandbox for ${servers(only[1])}: ${words(only[0])}` : msg`sandbox: ${joinShown(each, '; ')}`,
  ];
  // The user's explicit choice, said beside the containment it opens.
  if (writable.length > 0)
    lines.push(
      msg`writable inside the sandbox of every server (--writable): ${joinShown(
        writable.map((w) => msg`${show.path(w)}`),
        ', ',
      )}`,
    );
  if (asRoot) {
    lines.push(
      sandboxed === true
        ? msg`running as root: the sandbox is the only protection between the servers and this machine`
        : msg`running as root without --sandbox: the PID namespace each server runs in is not a sandbox, and the servers could change anything on this machine`,
    );
  }
  return lines;
}
