// Never a lone surrogate, which encoders, terminals and browsers show as U+FFFD or reject.

const isHigh = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

export function cutHead(text: string, n: number): string {
  if (n >= text.length) return text;
  if (n <= 0) return '';
  return text.slice(0, isHigh(text.charCodeAt(n - 1)) && isLow(text.charCodeAt(n)) ? n - 1 : n);
}

export function cutTail(text: string, n: number): string {
  if (n >= text.length) return text;
  if (n <= 0) return '';
  const at = text.length - n;
  return text.slice(isLow(text.charCodeAt(at)) && isHigh(text.charCodeAt(at - 1)) ? at + 1 : at);
}

export function clip(text: string, max: number): string {
  return text.length > max ? `${cutHead(text, max - 1)}…` : text;
}
