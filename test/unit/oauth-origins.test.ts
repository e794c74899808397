/**
 * Where OAuth may go over plain http (connect/oauth/fetch.ts `urlProblem`, and through it the
 * discovery state's check in endpoints.ts): to another origin only when the MCP server and that
 * origin are both loopback by their spelling. A remote MCP server cannot be reached from a test, so
 * the decision is checked here as the pure function it is.
 */
import type { OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { discoveryProblem } from '../../src/connect/oauth/endpoints.js';
import { isLoopbackLiteral, urlProblem } from '../../src/connect/oauth/fetch.js';

const origin = (u: string) => new URL(u).origin;
const allowed = (server: string, url: string) => urlProblem(new URL(url), origin(server)) === undefined;

describe('plain http between origins', () => {
  it('is allowed when the MCP server and the other origin are both loopback', () => {
    for (const [server, url] of [
      ['http://127.0.0.1:3000/mcp', 'http://127.0.0.1:4000/.well-known/oauth-authorization-server'],
      ['http://127.0.0.1:3000/mcp', 'http://localhost:4000/token'],
      ['http://localhost:3000/mcp', 'http://127.0.0.1:4000/token'],
      ['http://[::1]:3000/mcp', 'http://127.0.0.1:4000/token'],
      ['http://127.0.0.1:3000/mcp', 'http://[::1]:4000/token'],
      ['http://127.0.0.1:3000/mcp', 'http://127.0.0.2:4000/token'],
      ['http://127.0.0.1:3000/mcp', 'http://2130706433:4000/token'],
      ['http://127.0.0.1:3000/mcp', 'http://[::ffff:127.0.0.1]:4000/token'],
      ['https://127.0.0.1:3000/mcp', 'http://127.0.0.1:4000/token'],
    ])
      expect(allowed(server!, url!), `${server} -> ${url}`).toBe(true);
  });

  it('is refused for an MCP server that is not loopback, whatever the other origin is', () => {
    for (const server of [
      'https://mcp.example.com/mcp',
      'http://mcp.example.com/mcp',
      'http://10.0.0.5:3000/mcp',
      'http://127.0.0.1.example.com:3000/mcp',
      'http://localhost.evil:3000/mcp',
      'http://0.0.0.0:3000/mcp',
    ])
      for (const url of ['http://127.0.0.1:4000/token', 'http://localhost:4000/token', 'http://[::1]:4000/token'])
        expect(allowed(server, url), `${server} -> ${url}`).toBe(false);
  });

  it('is refused from a loopback MCP server to an origin that only looks loopback, or is not', () => {
    for (const url of [
      'http://auth.example.test/token',
      'http://127.0.0.1.example.com:4000/token',
      'http://localhost.evil:4000/token',
      'http://localhost.:4000/token',
      'http://0.0.0.0:4000/token',
      'http://[::]:4000/token',
      'http://10.0.0.1:4000/token',
      'http://[::ffff:10.0.0.1]:4000/token',
    ])
      expect(allowed('http://127.0.0.1:3000/mcp', url), url).toBe(false);
  });

  it('keeps the rules of the last round: https anywhere, plain http to the own loopback origin, no other scheme', () => {
    expect(allowed('https://mcp.example.com/mcp', 'https://auth.example.com/token')).toBe(true);
    expect(allowed('http://0.0.0.0:3000/mcp', 'http://0.0.0.0:3000/token')).toBe(true);
    expect(allowed('http://mcp.example.com/mcp', 'http://mcp.example.com/token')).toBe(false);
    expect(allowed('http://127.0.0.1:3000/mcp', 'ftp://127.0.0.1:4000/token')).toBe(false);
    expect(allowed('http://127.0.0.1:3000/mcp', 'file:///etc/passwd')).toBe(false);
  });

  it('reads loopback from the spelling alone', () => {
    for (const u of [
      'http://localhost/',
      'http://LOCALHOST/',
      'http://127.255.0.9/',
      'http://0x7f.1/',
      'http://[::1]/',
    ])
      expect(isLoopbackLiteral(new URL(u)), u).toBe(true);
    for (const u of ['http://localhost./', 'http://localhost.localdomain/', 'http://0.0.0.0/', 'http://[::]/'])
      expect(isLoopbackLiteral(new URL(u)), u).toBe(false);
  });
});

describe('a discovery state', () => {
  const state = (as: string): OAuthDiscoveryState =>
    ({
      authorizationServerUrl: as,
      authorizationServerMetadata: {
        issuer: as,
        authorization_endpoint: new URL('/authorize', as).href,
        token_endpoint: new URL('/token', as).href,
        response_types_supported: ['code'],
      },
    }) as OAuthDiscoveryState;

  it('naming a loopback authorization server on another port is used for a loopback MCP server only', () => {
    expect(discoveryProblem(state('http://127.0.0.1:4000/'), origin('http://127.0.0.1:3000/mcp'))).toBeUndefined();
    expect(discoveryProblem(state('http://127.0.0.1:4000/'), origin('https://mcp.example.com/mcp'))).toMatch(
      /^the authorization server's authorization server: refused http:\/\/127\.0\.0\.1:4000/,
    );
  });
});
