/**
 * `idemscan/retry`: what a client needs at retry time (docs/RETRY.md), without the scanner. It loads
 * only idemscan's own small modules (the verdict, the key search, key placement) and no package, and
 * its types need none: test/integration/retry-entry.test.ts walks both.
 */
export {
  retryDecision,
  retryDecisionFromReport,
  withRetryKey,
  type RetryDecision,
  type RetryContext,
  type KeyLocation,
  type ReportedTool,
} from './classify/retry.js';
export { placeKey } from './classify/key-place.js';
export { VERDICT_IDS, type Verdict } from './model/verdict-ids.js';
export { OutcomeUnknown, rawCapabilities } from './retry-helpers.js';
