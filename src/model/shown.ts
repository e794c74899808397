/** Escaped once and cut, never escaped again; no `toString`, so the linter catches one pasted into a string. */
export class Shown {
  constructor(readonly text: string) {}
}
