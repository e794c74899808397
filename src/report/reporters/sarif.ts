/**
 * SARIF 2.1.0, for GitHub code scanning and other SARIF viewers.
 *
 * A finding is about a server and a tool, not a line of code, so its logical location names them
 * (`server/tool`, kind `function`; server-level findings: `server`, kind `module`). GitHub code
 * scanning still requires a physical location on every result, so each result also points at the
 * file that declared the server: the target file (`target.source` up to `#`), relative to the
 * working directory (`%SRCROOT%`) when it lies inside it, as scanning a repository's own target
 * file in CI does. A target with no file (an `audit` of a command line) has nothing better than a
 * URL for HTTP servers, or the placeholder `mcp-server/<name>`: GitHub keeps such alerts but can
 * show no code for them. Fingerprints come from server, tool, rule and evidence, not from file
 * contents, so an alert survives edits to the target file.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Location, Log, ReportingDescriptor, Result } from 'sarif';
import { reportRules, type DocumentedRule } from '../../classify/profiles/index.js';
import { TOOL_NAME, TOOL_VERSION } from '../../version.js';
import type { Finding, Report, ServerReport, Severity } from '../schema.js';
import { visibleText } from '../terminal.js';
import type { Reporter } from './types.js';

/**
 * A result's message text, as viewers show it: invisible characters as visible escapes (as on a
 * terminal), and `[` `]` backslashed, which SARIF (3.11.6) requires of plain text so that server
 * text cannot form an embedded link `[text](https://...)` that GitHub renders.
 */
function messageText(text: string): string {
  return visibleText(text).replace(/[[\]]/g, '\\$&');
}

const LEVEL: Record<Severity, Result.level> = { error: 'error', warning: 'warning', info: 'note' };

/**
 * Where a rule's page is read. package.json names no repository, so this is the page as published
 * in the npm package (docs/ ships in it), at this version: the page always matches the rule.
 */
export function ruleDocUrl(id: string, page?: string): string {
  if (page?.startsWith('https://')) return page; // a team profile's own page
  return `https://unpkg.com/${TOOL_NAME}@${TOOL_VERSION}/docs/rules/${page ?? encodeURIComponent(id)}.md`;
}

function descriptor(rule: DocumentedRule): ReportingDescriptor {
  return {
    id: rule.id,
    name: rule.id.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()),
    shortDescription: { text: rule.title },
    helpUri: ruleDocUrl(rule.id, rule.docs),
    help: { text: `${rule.title}. What it detects, why it matters for retries and how to fix it: ${ruleDocUrl(rule.id, rule.docs)}` },
    defaultConfiguration: { level: LEVEL[rule.severity] },
  };
}

/** The file that declared the server, as a URI a viewer can resolve; see the comment at the top. */
function artifactOf(server: ServerReport, cwd: string): Location['physicalLocation'] {
  const file = server.target.source?.split('#')[0];
  if (file && server.target.source !== 'command line') {
    const relative = path.relative(cwd, path.resolve(cwd, file));
    if (relative && !relative.startsWith('..') && !path.isAbsolute(relative)) {
      return { artifactLocation: { uri: relative.split(path.sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' } };
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

function result(server: ServerReport, f: Finding, ruleIndex: Map<string, number>, cwd: string): Result {
  const fullyQualifiedName = f.tool === undefined ? server.name : `${server.name}/${f.tool}`;
  const fingerprint = createHash('sha256').update(JSON.stringify([server.name, f.tool ?? '', f.rule, f.evidence ?? ''])).digest('hex');
  const tool = f.tool === undefined ? undefined : server.tools.find((t) => t.name === f.tool);
  const index = ruleIndex.get(f.rule);
  return {
    ruleId: f.rule,
    ...(index === undefined ? {} : { ruleIndex: index }),
    level: LEVEL[f.severity],
    message: { text: messageText(`${fullyQualifiedName}: ${f.message}`) },
    locations: [{
      physicalLocation: artifactOf(server, cwd),
      logicalLocations: [{ name: f.tool ?? server.name, fullyQualifiedName, kind: f.tool === undefined ? 'module' : 'function' }],
    }],
    partialFingerprints: { 'idemscanFinding/v1': fingerprint.slice(0, 32) },
    properties: {
      server: server.name,
      ...(f.tool === undefined ? {} : { tool: f.tool }),
      ...(f.evidence === undefined ? {} : { evidence: f.evidence }),
      ...(tool ? { verdict: tool.verdict } : {}),
    },
  };
}

export function toSarif(report: Report, cwd = process.cwd()): Log {
  const catalogue = reportRules(report); // the rules, then those of the profiles the scan used
  const ruleIndex = new Map(catalogue.map((r, i) => [r.id, i]));
  const results = report.servers.flatMap((s) => [...s.tools.flatMap((t) => t.findings), ...s.findings].map((f) => result(s, f, ruleIndex, cwd)));
  const failed = report.servers.filter((s) => s.status === 'failed');
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{
      tool: { driver: { name: TOOL_NAME, version: TOOL_VERSION, informationUri: ruleDocUrl('README'), rules: catalogue.map(descriptor) } },
      invocations: [{
        executionSuccessful: report.servers.length === 0 || failed.length < report.servers.length,
        startTimeUtc: report.startedAt,
        endTimeUtc: report.finishedAt,
        // A server that could not be scanned is no finding about it, but a viewer should say so.
        toolExecutionNotifications: failed.map((s) => ({
          level: 'error' as const,
          message: { text: messageText(`${s.name}: not scanned: ${s.failure?.kind ?? 'failed'}: ${s.failure?.message ?? ''}`) },
          locations: [{ physicalLocation: artifactOf(s, cwd), logicalLocations: [{ name: s.name, fullyQualifiedName: s.name, kind: 'module' }] }],
        })),
      }],
      originalUriBaseIds: { '%SRCROOT%': { uri: pathToFileURL(cwd + path.sep).href } },
      results,
    }],
  };
}

export const sarifReporter: Reporter = {
  id: 'sarif',
  fileName: 'report.sarif',
  render: (report) => JSON.stringify(toSarif(report), null, 2) + '\n',
};
