/** The --sandbox warning for a /dev/null that is a plain file (sandboxes share it with the host). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { devNullNote } from '../../src/launch/sandbox.js';

it('says nothing of a character device', () => {
  expect(devNullNote('/dev/zero')).toBeUndefined();
});

it('warns of a /dev/null that is a regular file or missing, and says how to restore it', () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'idemscan-null-')), 'null');
  writeFileSync(file, 'what a shell threw away');
  expect(devNullNote(file)).toMatch(
    new RegExp(`${file} on this machine is not the null device.*mknod -m 666 ${file} c 1 3`),
  );
  expect(devNullNote(path.join(file, 'missing'))).toMatch(/not the null device/);
});
