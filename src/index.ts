/** The library: `scan()` returns a report and never prints. */
export { scan, type ScanOptions, type ProgressEvent } from './scan.js';
export { loadTargetFile, loadTargetFiles, parseTargets } from './targets/load.js';
export type { Target, SkippedTarget, LoadedTargets } from './targets/types.js';
export { TargetFileError } from './targets/types.js';
export { discover, CLIENTS, type Discovery, type DiscoverPlaces } from './targets/discover/index.js';
export { classifyTool, classifyServer } from './classify/index.js';
export { findKeyArguments, keyConfidence } from './classify/keys.js';
export { REPORTERS, reporter } from './report/reporters/index.js';
export * from './report/schema.js';
export { killAllServers } from './connect/stdio.js';
