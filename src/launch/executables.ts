import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** From idemscan's own PATH, never a relative entry, which the target's cwd would choose. */
export function hostProgram(name: string): string | undefined {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter((dir) => path.isAbsolute(dir));
  return dirs.map((dir) => path.join(dir, name)).find(isExecutable);
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The absolute path the command resolves to (PATH lookup as spawn does), or undefined. */
export function findExecutable(command: string, cwd?: string): string | undefined {
  const dirs = command.includes('/') ? [''] : (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of dirs) {
    const file = path.resolve(cwd ?? process.cwd(), dir, command);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}
