/** The report's `auth` field, read with the SDK's discovery helpers; nothing here signs in or registers. */
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  extractWWWAuthenticateParams,
  type AuthorizationServerMetadata,
} from '@modelcontextprotocol/client';
import { bounded } from '../../model/bounds.js';
import type { AuthInfo } from '../../model/schema.js';
import { guardedFetch, resourceMetadataProblem, urlProblem } from './fetch.js';

/** A refusal as the transport saw it. The header is cut before anything parses it. */
export interface Challenge {
  status: number;
  wwwAuthenticate?: string;
}

export const CHALLENGE_CHARS = 4_096;
const LIST_ITEMS = 32;
const ITEM_CHARS = 300;

export async function describeAuth(
  serverUrl: string,
  challenge: Challenge,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<AuthInfo> {
  const problems: string[] = [];
  const header = challenge.wwwAuthenticate;
  const params = header
    ? extractWWWAuthenticateParams(new Response(null, { status: 401, headers: { 'www-authenticate': header } }))
    : {};
  const info: AuthInfo = {
    required: true,
    status: challenge.status,
    scheme: header ? bounded(schemeOf(header), 40) : undefined,
    error: params.error && bounded(params.error, 100),
    registration: 'unknown',
  };
  const serverOrigin = new URL(serverUrl).origin;
  const fetchFn = guardedFetch({ serverOrigin, timeoutMs: opts.timeoutMs, signal: opts.signal });
  // Another origin's pointer is refused unfetched: a listed server must not aim idemscan at an internal host.
  const pointed = params.resourceMetadataUrl;
  const pointedProblem = pointed && resourceMetadataProblem(pointed, serverOrigin);
  if (pointedProblem) {
    problems.push(pointedProblem);
    return done(info, problems);
  }
  const resourceMetadata = await discoverOAuthProtectedResourceMetadata(
    serverUrl,
    { resourceMetadataUrl: pointed },
    fetchFn,
  ).catch((err: unknown) => {
    problems.push(`protected resource metadata: ${message(err)}`);
    return undefined;
  });
  if (resourceMetadata) {
    info.resourceMetadata = bounded((pointed ?? wellKnown(serverUrl)).href, ITEM_CHARS);
    info.resource =
      typeof resourceMetadata.resource === 'string' ? bounded(resourceMetadata.resource, ITEM_CHARS) : undefined;
    info.authorizationServers = list(resourceMetadata.authorization_servers);
  }
  info.scopesSupported = list(resourceMetadata?.scopes_supported) ?? list(params.scope?.split(' ').filter(Boolean));
  // Without resource metadata the 2025-03-26 rule applies: the server's own origin is the authorization server.
  const asUrl = resourceMetadata ? resourceMetadata.authorization_servers?.[0] : new URL(serverUrl).origin;
  const asProblem = asUrl && URL.canParse(asUrl) ? urlProblem(new URL(asUrl), serverOrigin) : undefined;
  if (asProblem) problems.push(asProblem);
  else if (asUrl) {
    const metadata = await discoverAuthorizationServerMetadata(asUrl, { fetchFn }).catch((err: unknown) => {
      problems.push(`authorization server metadata: ${message(err)}`);
      return undefined;
    });
    if (metadata) info.registration = registrationOf(metadata);
    else if (!problems.length) problems.push('authorization server metadata: none found');
  }
  return done(info, problems);
}

function registrationOf(metadata: AuthorizationServerMetadata): AuthInfo['registration'] {
  if ((metadata as { client_id_metadata_document_supported?: unknown }).client_id_metadata_document_supported === true)
    return 'cimd';
  if (typeof metadata.registration_endpoint === 'string') return 'dcr';
  return 'preregistered';
}

function done(info: AuthInfo, problems: string[]): AuthInfo {
  if (problems.length) info.problems = problems.slice(0, 8).map((p) => bounded(p, 500));
  return Object.fromEntries(Object.entries(info).filter(([, v]) => v !== undefined)) as AuthInfo;
}

/** The first token of a challenge, read without a regex: `Bearer realm=...` -> `bearer`. */
function schemeOf(header: string): string {
  const trimmed = header.trimStart();
  let end = 0;
  while (end < trimmed.length && trimmed[end] !== ' ' && trimmed[end] !== ',' && trimmed[end] !== '\t') end++;
  return trimmed.slice(0, end).toLowerCase();
}

function wellKnown(serverUrl: string): URL {
  const url = new URL(serverUrl);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return new URL(`/.well-known/oauth-protected-resource${path}`, url.origin);
}

function list(values: unknown): string[] | undefined {
  if (!Array.isArray(values)) return undefined;
  const strings = values.filter((v): v is string => typeof v === 'string').slice(0, LIST_ITEMS);
  return strings.length ? strings.map((v) => bounded(v, ITEM_CHARS)) : undefined;
}

function message(err: unknown): string {
  return bounded(String((err as Error)?.message ?? err), 300);
}
