/** The flags of every command declared once (src/cli/flags.ts), their types what commander infers from them. */
import { Command } from '@commander-js/extra-typings';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  auditFlags,
  diffFlags,
  installFlags,
  lockFlags,
  loginFlags,
  probeFlags,
  scanFlags,
  type AuditFlags,
  type DiffFlags,
  type InstallFlags,
  type ProbeFlags,
  type ScanFlags,
} from '../../src/cli/flags.js';
import { refreshFlags } from '../../src/census/cli/flags.js';

const declared = (make: (cmd: Command) => { options: readonly { long?: string; description: string }[] }) =>
  new Map(make(new Command('x')).options.map((o) => [o.long!, o.description]));

describe('flags', () => {
  it('types are inferred from the declarations', () => {
    expectTypeOf<ScanFlags['timeout']>().toEqualTypeOf<number>();
    expectTypeOf<ScanFlags['format']>().toEqualTypeOf<string[]>();
    expectTypeOf<ScanFlags['install']>().toEqualTypeOf<boolean>();
    expectTypeOf<ScanFlags['trust']>().toEqualTypeOf<string[] | undefined>();
    // scan's and lock's own, optional where a command has none.
    expectTypeOf<ScanFlags['concurrency']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<ScanFlags['lock']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<AuditFlags['tools']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ProbeFlags['plan']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<InstallFlags['concurrency']>().toEqualTypeOf<number>();
    expectTypeOf<DiffFlags['format']>().toEqualTypeOf<'text' | 'json' | 'md'>();
  });

  it("probe's options are audit's, but where probe means something else by them", () => {
    const audit = declared(auditFlags);
    const probe = declared(probeFlags);
    const own = new Set(['--plan', '--auto', '--timeout', '--fail-on', '--name', '--quiet']);
    const shared = [...probe.keys()].filter((f) => !own.has(f));
    expect(shared.length).toBeGreaterThanOrEqual(9);
    for (const flag of shared) expect(probe.get(flag), flag).toBe(audit.get(flag));
  });

  it('--cache-dir is described once', () => {
    const all = [scanFlags, auditFlags, lockFlags, probeFlags, installFlags, refreshFlags, loginFlags].map((f) =>
      declared(f).get('--cache-dir'),
    );
    expect(new Set(all).size).toBe(1);
    expect(all[0]).toContain('$IDEMSCAN_CACHE');
    expect(declared(diffFlags).has('--cache-dir')).toBe(false);
  });
});
