import type { FailureKind } from '../model/schema.js';

/** Inside the connector a failure travels as this error; `scan()` turns it into report data. */
export class ScanFailure extends Error {
  constructor(
    readonly kind: FailureKind,
    message: string,
    /** The HTTP status that refused the request, when one did (http-failure.ts). */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ScanFailure';
  }
}
