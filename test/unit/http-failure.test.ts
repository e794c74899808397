// A header the HTTP client refuses is a request never sent: a protocol failure, not an unreachable server.
import { describe, expect, it } from 'vitest';
import { SseError } from '@modelcontextprotocol/client';
import { httpFailure } from '../../src/connect/http-failure.js';
import { answerOf } from '../../src/io/http-request.js';

const HOST = '127.0.0.1:9';
const NOT_SENT = /^the request was not sent: idemscan's HTTP client refuses /;

/** What undici itself throws for these headers, as io/http-request.ts passes it on (refused before any socket). */
async function refusal(headers: Record<string, string>): Promise<unknown> {
  try {
    await answerOf(new URL('http://127.0.0.1:8080/mcp'), {
      method: 'POST',
      headers,
      body: '{}',
      signal: AbortSignal.timeout(5_000),
      redirects: {
        follow: () => {
          throw new Error('no redirect');
        },
      },
    });
  } catch (err) {
    return err;
  }
  throw new Error('sent');
}

describe('a header undici refuses (Streamable HTTP)', () => {
  it.each([
    [{ 'transfer-encoding': 'chunked' }, 'transfer-encoding'],
    [{ connection: 'upgrade' }, 'connection'],
    [{ 'keep-alive': '1' }, 'keep-alive'],
    [{ upgrade: 'h2c' }, 'upgrade'],
    [{ expect: '100-continue' }, 'expect'],
    [{ 'x-key': 'secret\r\nX-Injected: 1' }, 'x-key'],
    [{ 'x-key': 'secret\u0001value' }, 'x-key'],
  ])('%j: not sent, naming %s, never the value', async (headers, name) => {
    const err = await refusal(headers);
    expect(err).toBeInstanceOf(TypeError);
    const failure = httpFailure(err, HOST);
    expect(failure.kind).toBe('protocol');
    expect(failure.status).toBeUndefined();
    expect(failure.message).toMatch(NOT_SENT);
    expect(failure.message).toContain(`the target's header "${name}"`);
    expect(failure.message).not.toMatch(/secret|unreach|cannot reach/);
  });

  it('a name that is not a token: not sent, no name (undici does not give it)', async () => {
    const failure = httpFailure(await refusal({ 'Bad Name': 'x' }), HOST);
    expect([failure.kind, failure.message]).toEqual(['protocol', expect.stringMatching(NOT_SENT)]);
    expect(failure.message).toContain("one of the target's headers");
  });
});

describe('the same over HTTP+SSE, whose errors keep only words', () => {
  const sse = (words: string) => new SseError(undefined, words, {} as never);

  it.each([
    ['TypeError: fetch failed: invalid transfer-encoding header', 'transfer-encoding'],
    ['TypeError: fetch failed: expect header not supported', 'expect'],
    ['TypeError: fetch failed: invalid X-Key header', 'X-Key'],
    ['Headers.append: "Bad Name" is an invalid header name.', 'Bad Name'],
  ])('%s', (words, name) => {
    const failure = httpFailure(sse(words), HOST);
    expect([failure.kind, failure.message]).toEqual(['protocol', expect.stringMatching(NOT_SENT)]);
    expect(failure.message).toContain(`"${name}"`);
  });

  it("fetch's words for a bad value quote the value: none of it is kept", () => {
    for (const err of [
      sse('Headers.append: "secret\nvalue" is an invalid header value.'),
      new TypeError('Headers.append: "secret\nvalue" is an invalid header value.'),
      sse(
        'Cannot convert argument to a ByteString because the character at index 3 has a value of 8364 which is greater than 255.',
      ),
    ]) {
      const failure = httpFailure(err, HOST);
      expect([failure.kind, failure.message]).toEqual(['protocol', expect.stringMatching(NOT_SENT)]);
      expect(failure.message).not.toContain('secret');
    }
  });

  it('a refused connection is still unreachable, and a server that quotes the words is not believed', () => {
    expect(httpFailure(sse('TypeError: fetch failed: connect ECONNREFUSED 127.0.0.1:9'), HOST).kind).toBe(
      'unreachable',
    );
    const quoted = httpFailure(new Error('Error POSTing to endpoint (HTTP 404): invalid transfer-encoding header'));
    expect([quoted.kind, quoted.status]).toEqual(['protocol', 404]);
    expect(quoted.message).not.toMatch(NOT_SENT);
  });
});
