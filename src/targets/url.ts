/** Why a URL cannot be scanned, or undefined: only http(s) URLs are. */
export function httpUrlProblem(url: string): string | undefined {
  // The value is not quoted: after `${VAR}` expansion it may hold a secret.
  if (!URL.canParse(url)) return 'not a URL';
  const { protocol } = new URL(url);
  return protocol === 'http:' || protocol === 'https:'
    ? undefined
    : `"${protocol}" URLs cannot be scanned (http or https only)`;
}
