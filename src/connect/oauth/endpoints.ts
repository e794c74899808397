/** The SDK uses discovered URLs directly, so metadata is refused whole when one URL breaks fetch.ts's rules. */
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { authorizationUrlProblem, resourceMetadataProblem, urlProblem } from './fetch.js';

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
