/**
 * What discovery found, checked before anything uses it: the SDK registers a client, builds the
 * authorization URL and posts to the token endpoint straight from the metadata, so a server's
 * metadata is refused whole when one of its URLs breaks the rules of fetch.ts. Checked when the
 * SDK hands the state over (saveDiscoveryState, before registration and before any URL is shown)
 * and again when a stored state is read back.
 */
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { authorizationUrlProblem, resourceMetadataProblem, urlProblem } from './fetch.js';

/** Why this discovery state is not used, or undefined. */
export function discoveryProblem(state: OAuthDiscoveryState, serverOrigin: string): string | undefined {
  const checks: [string, unknown, (u: URL) => string | undefined][] = [
    ['resource_metadata', state.resourceMetadataUrl, (u) => resourceMetadataProblem(u, serverOrigin)],
    ['authorization server', state.authorizationServerUrl, (u) => urlProblem(u, serverOrigin)],
  ];
  const m = state.authorizationServerMetadata as Record<string, unknown> | undefined;
  if (m) {
    checks.push(['authorization_endpoint', m.authorization_endpoint, authorizationUrlProblem]);
    for (const field of ['token_endpoint', 'registration_endpoint', 'revocation_endpoint'])
      checks.push([field, m[field], (u) => urlProblem(u, serverOrigin)]);
  }
  for (const [field, value, check] of checks) {
    if (value === undefined) continue;
    const url = typeof value === 'string' && URL.canParse(value) ? new URL(value) : undefined;
    const problem = url ? check(url) : 'not a URL';
    if (problem) return `the authorization server's ${field}: ${problem}`;
  }
  return undefined;
}
