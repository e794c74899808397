// Node's types for the signatures that use them (NodeJS.ProcessEnv, Buffer): kept in index.d.ts so a
// consumer needs no "types": ["node"] (TypeScript 6+ loads no @types by default); @types/node is a dependency.
/// <reference types="node" preserve="true" />
/** The library: `scan()` returns a report and never prints. */
export { scan, type ScanOptions, type ProgressEvent } from './app/scan/scan.js';
/** Bad input of any kind (the classes below extend it): `file`, `field`, `detail`. */
export { InputError, type InputPlace } from './model/input-error.js';
export { ScanInputError, type ScanInputErrorKind } from './app/scan/scan-input.js';
export { loadTargetFile, loadTargetFiles, parseTargets, discover } from './targets/published.js';
export type { LoadedInputs as LoadedTargets, DiscoveredInputs as Discovery } from './targets/published.js';
export type { TargetInput as Target, SkippedTarget, TargetFileErrorKind } from './targets/types.js';
export { TargetFileError } from './targets/types.js';
export { CLIENTS, type DiscoverPlaces } from './targets/discover/index.js';
export { classifyTool, classifyServer } from './classify/index.js';
export { findKeyArguments, keyConfidence } from './classify/keys.js';
/** At retry time: whether to re-issue a call whose answer was lost (docs/RETRY.md): `idemscan/retry`, whole. */
export * from './retry.js';
/** `idemscan probe` as a library call (docs/PROBE.md): it calls tools, with real effects. */
export { probe, readPlan, type ProbeOptions, type ProbeResult } from './app/probe/probe.js';
export { parsePlan, PlanError, type ProbePlan } from './model/probe-plan.js';
export { ProbeOutcome, ProbeCall, ToolProbe, ProbeSummary } from './model/probe-schema.js';
export { PROBE_OUTCOMES, countProbes } from './model/probe-outcomes.js';
export { REPORTERS, reporter } from './render/index.js';
export * from './model/schema.js';
// The zod schema and its type, not retry.ts's plain type of the same name (both are the five verdicts).
export { Verdict } from './model/schema.js';
export { killAllServers } from './connect/stdio.js';
/** Pure functions over reports and lock files (what `diff`, `lock`, `merge` and `--baseline` do). */
export { diffReports, type DiffInput } from './compare/diff.js';
export { diffJsonSchema, DiffDocument, type Change, type Direction } from './model/diff.js';
export { renderDiff } from './render/diff.js';
export { DIFF_FORMATS, type DiffFormat } from './model/formats.js';
export { lockOf } from './compare/lock.js';
export { lockJsonSchema, LockFile } from './model/lock.js';
export { driftOf } from './compare/drift.js';
export { renderDrift } from './render/drift.js';
export { mergeReports, MergeError, type MergeInput, type MergeResult } from './compare/merge.js';
export { parseReport, readReportFile, ReportFileError, type LoadedReport } from './compare/read.js';
/** Verdicts and rules as data: order, meanings, counting; the rule catalogue. */
export { VERDICTS, countVerdicts, headlineText, type VerdictInfo, type VerdictCounts } from './model/verdicts.js';
export { CATALOGUE, type RuleId, type RuleEntry } from './model/catalogue.js';
