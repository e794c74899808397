/** The base folders the client table builds paths from, for one platform, HOME and environment. */
import path from 'node:path';

export interface DiscoverPlaces {
  /** The user's home folder (the CLI passes os.homedir()). */
  home: string;
  /** The project folder for project-level files (the CLI passes process.cwd()); none: user files only. */
  project?: string;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
}

export interface Dirs {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
  /** %APPDATA% on Windows, ~/Library/Application Support on macOS, $XDG_CONFIG_HOME (~/.config) on Linux. */
  appData: string;
  /** $XDG_CONFIG_HOME, else ~/.config, on every platform: tools that follow XDG do so on macOS and Windows too. */
  xdgConfig: string;
  join(...parts: string[]): string;
  inProject(...parts: string[]): string | undefined;
}

export function dirsFor(places: DiscoverPlaces): Dirs {
  const platform = places.platform ?? process.platform;
  const env = places.env ?? process.env;
  const p = platform === 'win32' ? path.win32 : path.posix;
  const home = places.home;
  // The XDG spec ignores a relative value.
  const xdg = env.XDG_CONFIG_HOME && p.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : p.join(home, '.config');
  const appData =
    platform === 'win32'
      ? env.APPDATA || p.join(home, 'AppData', 'Roaming')
      : platform === 'darwin'
        ? p.join(home, 'Library', 'Application Support')
        : xdg;
  return {
    platform,
    env,
    home,
    appData,
    xdgConfig: xdg,
    join: (...parts) => p.join(...parts),
    inProject: (...parts) => (places.project === undefined ? undefined : p.join(places.project, ...parts)),
  };
}
