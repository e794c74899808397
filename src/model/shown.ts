/**
 * Text made safe to show on a terminal: every value in it escaped (render/terminal.ts) and cut to
 * its named cap (`LIMITS.shown`). render/message.ts makes one (`msg`); the CLI's writer of stderr
 * lines (cli/say.ts) and an `InputError`'s detail take one, so that what was escaped once is never
 * escaped again (a doubled `\u001b` reads as another text) and raw text is never printed. No
 * `toString`: a Shown pasted into a plain template string would lose what it is, so it reads
 * `[object Object]` there, and the linter says so. Here, not in render/, because an `InputError`
 * (model/input-error.ts) may carry one.
 */
export class Shown {
  constructor(readonly text: string) {}
}
