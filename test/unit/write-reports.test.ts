/**
 * The one report writer reads the servers once for every streaming report and for those that need
 * the report whole (app/write-reports.ts), and the table and the lock answer from folds the first
 * pass ran (app/scan/post-process.ts): the bytes are those each reporter writes alone.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { postProcess } from '../../src/app/scan/post-process.js';
import { writeReports } from '../../src/app/write-reports.js';
import { lockFold, lockOf } from '../../src/compare/lock.js';
import { streamOf, type ReportHead } from '../../src/model/report-head.js';
import type { ServerReport } from '../../src/model/schema.js';
import { reporter } from '../../src/render/index.js';
import { tableFold } from '../../src/render/table.js';
import { okServer, reportOf } from '../helpers/reports.js';

const tools = [{ name: 'write_a', description: 'Writes a.', inputSchema: { type: 'object' } }];
const list = Array.from({ length: 5 }, (_, i) => okServer(`s${i}`, tools));
const report = reportOf(list);
const { servers: _servers, summary: _summary, ...head } = report;
const dir = mkdtempSync(path.join(os.tmpdir(), 'idemscan-write-reports-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const say = { warn() {}, tell() {}, note() {}, lines() {} };

describe('writeReports', () => {
  it('writes json, csv, ndjson and html from one read of the servers, each as it renders alone', async () => {
    let reads = 0;
    const stream = { ...streamOf(report), servers: () => (reads++, list) };
    const formats = ['json', 'csv', 'ndjson', 'html'];
    const printed: string[] = [];
    const out = path.join(dir, 'out');
    const written = await writeReports(stream, { out, formats }, 'report', { print: (t) => printed.push(t), say });
    expect(reads).toBe(1);
    expect(written.files.map((f) => f.id)).toEqual(formats);
    for (const f of written.files)
      expect(readFileSync(f.dest, 'utf8')).toBe((await reporter(f.id)).render(report, undefined));
  });

  it('prints --json - in the same read', async () => {
    let reads = 0;
    const stream = { ...streamOf(report), servers: () => (reads++, list) };
    const printed: string[] = [];
    await writeReports(stream, { out: path.join(dir, 'out2'), formats: ['csv'], json: '-' }, 'report', {
      print: (t) => printed.push(t),
      say,
    });
    expect(reads).toBe(1);
    expect(printed.join('')).toBe((await reporter('json')).render(report));
  });
});

describe('folds of later readers', () => {
  it('the table and the lock answer from the first pass, without reading the servers again', async () => {
    let reads = 0;
    const servers = () => (reads++, JSON.parse(JSON.stringify(list)) as ServerReport[]);
    const p = await postProcess(head as ReportHead, servers, { folds: [tableFold, lockFold] });
    expect(reads).toBe(1);
    const table = await reporter('table');
    const parts: string[] = [];
    table.write!(p.stream, (t) => parts.push(t));
    expect(p.stream.fold(lockFold).map((s) => s.name)).toEqual(lockOf(report).servers.map((s) => s.name));
    expect(reads).toBe(1);
    expect(parts.join('')).toBe(table.render(report));
  });
});
