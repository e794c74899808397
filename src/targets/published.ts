/** The loaders as the library publishes them: each target flat, with its kind. */
import {
  discover as discoverTargets,
  type Discovery,
  type DiscoverOptions,
  type FoundTarget,
} from './discover/index.js';
import { inputOf, type LoadedTarget } from './kind.js';
import * as load from './load.js';
import type { LoadedTargets, SkippedTarget } from './types.js';

export interface LoadedInputs {
  targets: LoadedTarget[];
  skipped: SkippedTarget[];
}

/** A discovered server: where it is listed, and whether a project lists it. */
type FoundInput = LoadedTarget & Pick<FoundTarget, 'listedBy' | 'scope'>;

export interface DiscoveredInputs extends Omit<Discovery, 'targets' | 'projectTargets'> {
  targets: FoundInput[];
  projectTargets: FoundInput[];
}

const flat = ({ targets, skipped }: LoadedTargets): LoadedInputs => ({ targets: targets.map(inputOf), skipped });
const flatFound = (t: FoundTarget): FoundInput => ({ ...inputOf(t), listedBy: t.listedBy, scope: t.scope });

export const loadTargetFile = async (file: string, env?: NodeJS.ProcessEnv): Promise<LoadedInputs> =>
  flat(await load.loadTargetFile(file, env));

export const loadTargetFiles = async (files: string[], env?: NodeJS.ProcessEnv): Promise<LoadedInputs> =>
  flat(await load.loadTargetFiles(files, env));

export const parseTargets = (text: string, file: string, env?: NodeJS.ProcessEnv): LoadedInputs =>
  flat(load.parseTargets(text, file, env));

export async function discover(options: DiscoverOptions): Promise<DiscoveredInputs> {
  const found = await discoverTargets(options);
  return { ...found, targets: found.targets.map(flatFound), projectTargets: found.projectTargets.map(flatFound) };
}
