/** Keeps the last `limit` bytes of a stream (a server's stderr), whatever it writes. */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  private cut = false;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size > this.limit) this.cut = true;
    while (this.size > this.limit && this.chunks.length > 1) this.size -= this.chunks.shift()!.length;
    if (this.size > this.limit) {
      this.chunks = [this.chunks[0]!.subarray(this.size - this.limit)];
      this.size = this.limit;
    }
  }

  /** Cut text starts with `…`; its first-line fragment goes (half a secret escapes redaction) unless it is the last. */
  text(): string {
    let bytes = Buffer.concat(this.chunks);
    if (!this.cut) return bytes.toString('utf8');
    let start = 0;
    while (start < bytes.length && start < 3 && (bytes[start]! & 0xc0) === 0x80) start++; // UTF-8 continuation bytes
    bytes = bytes.subarray(start);
    const text = bytes.toString('utf8');
    const nl = text.indexOf('\n');
    const rest = nl < 0 ? '' : text.slice(nl + 1);
    return rest.trim() ? `…\n${rest}` : `…${text}`;
  }
}
