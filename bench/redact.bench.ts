/**
 * Redaction time on hostile text, to show it is linear: each shape at 300 KB, 1 MB, 4 MB and 16 MB
 * (time per MB should stay flat), a report nested 100,000 levels deep, and, for comparison, the
 * JWT regex idemscan used before on growing `eyJ-eyJ-...` strings (time quadruples as size doubles).
 *   node --import tsx bench/redact.bench.ts
 */
import { Redactor } from '../src/redact/redact.js';
import { redactDeep } from '../src/redact/redact-report.js';

const redactor = new Redactor({
  headers: {
    Authorization: 'Bearer abcdefghijklmnopqrstuvwxyz012345',
    'X-Org': 'northwindtrading',
    'X-Rep': 'a'.repeat(64),
  },
  args: ['--token=TokQ7x9Lm2Pz4Vb', '--password', 'PwHunter83JdKsQ'],
  url: 'https://bob:pw-Secret-99@example.test/mcp?sig=SigVal7Hq2Wm5Zp',
  secrets: ['acmewidgetsinc'],
});

const SHAPES: Record<string, string> = {
  'eyJ-eyJ-': 'eyJ-',
  'eyJ.eyJ.': 'eyJaaaaaaaa.',
  'sk-sk-': 'sk-',
  'Bearer Bearer': 'Bearer ',
  'aaaa (repeats a secret)': 'a',
  'forged cut marks': 'aaaa… [1 more characters]',
  'tokens at forged marks': 'x ghp_abc… [1 more characters]',
  'a mark of endless digits': '… [' + '9'.repeat(64),
  'Bearer and spaces': 'Bearer ' + ' '.repeat(64),
  'prose with secrets': 'Deploys for acmewidgetsinc with PwHunter83JdKsQ and ghp_abcdefghijklmnop. ',
};

const ms = (f: () => void): number => {
  const t = performance.now();
  f();
  return performance.now() - t;
};

console.log('shape'.padEnd(26), ['300 KB', '1 MB', '4 MB', '16 MB'].map((s) => s.padStart(16)).join(''));
for (const [name, unit] of Object.entries(SHAPES)) {
  const cells = [300_000, 1_000_000, 4_000_000, 16_000_000].map((n) => {
    const text = unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
    const t = ms(() => redactor.text(text));
    return `${t.toFixed(0)} ms (${(t / (n / 1e6)).toFixed(0)}/MB)`.padStart(16);
  });
  console.log(name.padEnd(26), cells.join(''));
}

let deep: Record<string, unknown> = { acmewidgetsinc: 'acmewidgetsinc' };
for (let i = 0; i < 100_000; i++) deep = { a: deep };
console.log(`100,000 levels deep: ${ms(() => redactDeep(deep, (t) => redactor.text(t))).toFixed(0)} ms`);

const OLD_JWT = /\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/g;
for (const n of [10_000, 20_000, 40_000]) {
  const text = 'eyJ-'.repeat(n / 4);
  console.log(`before (old JWT regex), ${n / 1000} KB eyJ-eyJ-: ${ms(() => text.replace(OLD_JWT, '')).toFixed(0)} ms`);
}
