/** SARIF 2.1.0. GitHub needs a physical location: each result points at a line of the target file; fingerprints skip content. */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Log, PhysicalLocation, ReportingDescriptor, Result } from 'sarif';
import { readBoundedTextSync } from '../io/read.js';
import { TOOL_NAME, TOOL_VERSION } from '../model/version.js';
import { verdictRule } from '../model/catalogue.js';
import { httpsDocs, ownPage, reportRules, ruleDocUrl, rulePage, type DocumentedRule } from '../model/rule-pages.js';
import type { Finding, Report, ServerReport, Severity, ToolReport, Verdict } from '../model/schema.js';
import { VERDICT } from '../model/verdicts.js';
import { visibleText } from './terminal.js';
import type { RenderOptions, Reporter, SarifUris } from './types.js';
import { probeSarifResults, probeSarifRules } from './probe-view.js';

/** SARIF 3.11.6: `[` `]` backslashed in plain text, so server text cannot form a link GitHub renders. */
function messageText(text: string): string {
  return visibleText(text).replace(/[[\]]/g, '\\$&');
}

const LEVEL: Record<Severity, Result.level> = { error: 'error', warning: 'warning', info: 'note' };

/** Relative links cannot open from an alert: absolute under `--rules-base-url`, plain text without it. */
function rewriteLinks(markdown: string, pageUrl: string | undefined, plain: boolean): string {
  let out = '';
  let pos = 0;
  // One pass from link to link (`[text](target)`), no regex: each character is looked at a bounded number of times.
  for (let mid = markdown.indexOf('](', pos); mid >= 0; mid = markdown.indexOf('](', pos)) {
    const open = markdown.lastIndexOf('[', mid);
    const close = markdown.indexOf(')', mid + 2);
    const target = close < 0 ? '' : markdown.slice(mid + 2, close);
    if (open < pos || close < 0 || /\s/.test(target)) {
      out += markdown.slice(pos, mid + 2);
      pos = mid + 2;
      continue;
    }
    const text = markdown.slice(open + 1, mid);
    const absolute = /^https?:/i.test(target)
      ? target
      : pageUrl === undefined
        ? undefined
        : new URL(target, pageUrl).href;
    out +=
      markdown.slice(pos, open) +
      (absolute === undefined ? text : plain ? `${text} (${absolute})` : `[${text}](${absolute})`);
    pos = close + 1;
  }
  return out + markdown.slice(pos);
}

/** The rule's full help, so a viewer shows it without following a link: the page, or its title when there is none. */
export function ruleHelp(rule: DocumentedRule, base: string | undefined): { text: string; markdown: string } {
  const path = ownPage(rule);
  const page = path === undefined ? undefined : rulePage(path);
  if (page === undefined) {
    // A team profile's rule: its title, and its own page when it names one.
    const https = httpsDocs(rule.docs);
    const more = https ? ` ${https}` : '';
    return { text: `${rule.title}.${more}`, markdown: `${rule.title}.${more}` };
  }
  const pageUrl = ruleDocUrl(rule.id, base, path);
  const text = rewriteLinks(page, pageUrl, true)
    .split('\n')
    .map((line) => (line.startsWith('#') ? line.replace(/^#+ /, '') : line).replaceAll('**', ''))
    .join('\n');
  return { text, markdown: rewriteLinks(page, pageUrl, false) };
}

function descriptor(rule: DocumentedRule, base: string | undefined): ReportingDescriptor {
  const helpUri = ruleDocUrl(rule.id, base, httpsDocs(rule.docs) ?? ownPage(rule));
  return {
    id: rule.id,
    name: rule.id.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()),
    shortDescription: { text: rule.title },
    ...(helpUri === undefined ? {} : { helpUri }),
    help: ruleHelp(rule, base),
    defaultConfiguration: { level: LEVEL[rule.severity] },
  };
}

/** `--sarif-uri` wins: the server's source file in the repository, relative to `%SRCROOT%`. */
function artifactOf(server: ServerReport, cwd: string, uris: SarifUris | undefined): PhysicalLocation {
  const mapped = uris?.byName.get(server.name) ?? uris?.all;
  if (mapped !== undefined)
    return { artifactLocation: { uri: mapped.split('/').map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' } };
  const file = server.target.source?.split('#')[0];
  if (file && server.target.source !== 'command line') {
    const relative = path.relative(cwd, path.resolve(cwd, file));
    if (relative && !relative.startsWith('..') && !path.isAbsolute(relative)) {
      return {
        artifactLocation: { uri: relative.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' },
      };
    }
    return { artifactLocation: { uri: pathToFileURL(path.resolve(cwd, file)).href } };
  }
  if (server.target.url) return { artifactLocation: { uri: server.target.url } };
  return {
    artifactLocation: {
      uri: `mcp-server/${encodeURIComponent(server.name)}`,
      description: { text: 'no target file declared this server (command line); placeholder' },
    },
  };
}

/** Larger files get line 1: a region needs a line, and a guess would be worse than the top. */
const MAX_SOURCE_BYTES = 4 * 1024 * 1024;

/** Each text quoted on a line (`"x"`, `'x'` or `` `x` ``) and its line; 0 when several lines quote it. */
function quotedLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  text.split('\n').forEach((line, i) => {
    for (const q of ['"', "'", '`'])
      for (const piece of line.split(q).slice(1, -1))
        if (piece) lines.set(piece, lines.has(piece) && lines.get(piece) !== i + 1 ? 0 : i + 1);
  });
  return lines;
}

/** Points a result at its artifact: `name` of the server, `tool` of the finding when there is one. */
type Locate = (server: ServerReport, tool?: string) => PhysicalLocation;

/** The line that alone quotes the tool's name, else the server's, in a file under %SRCROOT%; else line 1. */
function locator(cwd: string, uris: SarifUris | undefined): Locate {
  const files = new Map<string, Map<string, number>>();
  const linesOf = (uri: string): Map<string, number> => {
    const file = path.resolve(cwd, ...uri.split('/').map(decodeURIComponent));
    const inside = path.relative(cwd, file);
    if (inside.startsWith('..') || path.isAbsolute(inside)) return new Map();
    if (!files.has(file)) {
      const read = readBoundedTextSync(file, { maxBytes: MAX_SOURCE_BYTES });
      files.set(file, 'text' in read ? quotedLines(read.text) : new Map());
    }
    return files.get(file)!;
  };
  return (server, tool) => {
    const at = artifactOf(server, cwd, uris);
    const uri = at.artifactLocation?.uriBaseId === '%SRCROOT%' ? at.artifactLocation.uri : undefined;
    const lines = uri === undefined ? new Map<string, number>() : linesOf(uri);
    const startLine = (tool === undefined ? 0 : lines.get(tool)) || lines.get(server.name) || 1;
    return { ...at, region: { startLine } };
  };
}

function result(server: ServerReport, f: Finding, ruleIndex: Map<string, number>, locate: Locate): Result {
  const fullyQualifiedName = f.tool === undefined ? server.name : `${server.name}/${f.tool}`;
  const fingerprint = fingerprintOf([server.name, f.tool ?? '', f.rule, f.evidence ?? '']);
  const tool = f.tool === undefined ? undefined : server.tools.find((t) => t.name === f.tool);
  const index = ruleIndex.get(f.rule);
  return {
    ruleId: f.rule,
    ...(index === undefined ? {} : { ruleIndex: index }),
    level: LEVEL[f.severity],
    message: { text: messageText(`${fullyQualifiedName}: ${f.message}`) },
    locations: [
      {
        physicalLocation: locate(server, f.tool),
        logicalLocations: [
          { name: f.tool ?? server.name, fullyQualifiedName, kind: f.tool === undefined ? 'module' : 'function' },
        ],
      },
    ],
    partialFingerprints: { 'idemscanFinding/v1': fingerprint },
    // A reviewed finding (--suppress): still a result, so code scanning shows it dismissed, with the reason.
    ...(f.suppressed
      ? { suppressions: [{ kind: 'external' as const, justification: messageText(f.suppressed.reason) }] }
      : {}),
    properties: {
      server: server.name,
      ...(f.tool === undefined ? {} : { tool: f.tool }),
      ...(f.evidence === undefined ? {} : { evidence: f.evidence }),
      ...(tool ? { verdict: tool.verdict } : {}),
      ...(f.fix ? { fix: f.fix } : {}),
    },
  };
}

const fingerprintOf = (parts: string[]) =>
  createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 32);

/** A tool a `--fail-on` verdict matched: a result of the verdict's rule, dismissed when its verdict was accepted. */
function verdictResult(server: ServerReport, t: ToolReport, ruleIndex: number, locate: Locate): Result {
  const fullyQualifiedName = `${server.name}/${t.name}`;
  const ruleId = verdictRule(t.verdict).id;
  const accepted = t.accepted?.verdict === t.verdict ? t.accepted : undefined;
  return {
    ruleId,
    ruleIndex,
    level: 'error',
    message: {
      text: messageText(
        `${fullyQualifiedName}: verdict ${t.verdict} (${VERDICT[t.verdict].meaning}), which --fail-on names`,
      ),
    },
    locations: [
      {
        physicalLocation: locate(server, t.name),
        logicalLocations: [{ name: t.name, fullyQualifiedName, kind: 'function' }],
      },
    ],
    partialFingerprints: { 'idemscanFinding/v1': fingerprintOf([server.name, t.name, ruleId, '']) },
    ...(accepted ? { suppressions: [{ kind: 'external' as const, justification: messageText(accepted.reason) }] } : {}),
    properties: { server: server.name, tool: t.name, verdict: t.verdict },
  };
}

/** The verdicts `--fail-on` named, once each (a saved report is anyone's text). */
const gateVerdicts = (report: Report): Verdict[] => [...new Set(report.gate?.verdicts ?? [])];

/** Tools whose verdict `--fail-on` names, in report order; `firstIndex`: the first verdict rule's index. */
function verdictResults(report: Report, firstIndex: number, locate: Locate): Result[] {
  const verdicts = gateVerdicts(report);
  return report.servers.flatMap((s) =>
    s.tools
      .filter((t) => verdicts.includes(t.verdict))
      .map((t) => verdictResult(s, t, firstIndex + verdicts.indexOf(t.verdict), locate)),
  );
}

export function toSarif(report: Report, cwd = process.cwd(), options: RenderOptions = {}): Log {
  const base = options.rulesBaseUrl;
  const information = ruleDocUrl('README', base);
  const catalogue = reportRules(report); // the rules, then those of the profiles the scan used
  const ruleIndex = new Map(catalogue.map((r, i) => [r.id, i]));
  const locate = locator(cwd, options.sarifUris);
  const results = report.servers.flatMap((s) =>
    [...s.tools.flatMap((t) => t.findings), ...s.findings].map((f) => result(s, f, ruleIndex, locate)),
  );
  // `idemscan probe`: its outcomes, after the findings, with rules of their own (probe-view.ts).
  const byName = new Map(report.servers.map((s) => [s.name, s]));
  results.push(...probeSarifResults(report, (name) => locate(byName.get(name)!), catalogue.length));
  // `--fail-on <verdict>`: its rules after the probe's, so neither moves the other's indexes.
  const probeRules = probeSarifRules(report);
  const verdictRules = gateVerdicts(report).map((v) => descriptor(verdictRule(v), base));
  results.push(...verdictResults(report, catalogue.length + probeRules.length, locate));
  const failed = report.servers.filter((s) => s.status === 'failed');
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: TOOL_NAME,
            version: TOOL_VERSION,
            ...(information ? { informationUri: information } : {}),
            rules: [...catalogue.map((r) => descriptor(r, base)), ...probeRules, ...verdictRules],
          },
        },
        invocations: [
          {
            executionSuccessful: report.servers.length === 0 || failed.length < report.servers.length,
            startTimeUtc: report.startedAt,
            endTimeUtc: report.finishedAt,
            // A server that could not be scanned is no finding about it, but a viewer should say so.
            toolExecutionNotifications: failed.map((s) => ({
              level: 'error' as const,
              message: {
                text: messageText(
                  `${s.name}: not scanned: ${s.failure?.kind ?? 'failed'}: ${s.failure?.message ?? ''}`,
                ),
              },
              locations: [
                {
                  physicalLocation: locate(s),
                  logicalLocations: [{ name: s.name, fullyQualifiedName: s.name, kind: 'module' }],
                },
              ],
            })),
          },
        ],
        originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(cwd + path.sep).href } },
        results,
      },
    ],
  };
}

export const sarifReporter: Reporter = {
  render: (report, options) => JSON.stringify(toSarif(report, process.cwd(), options), null, 2) + '\n',
};
