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

  /**
   * Once cut, the text starts with `…` and at a character boundary (never half a character). The
   * first line is then a fragment: dropped when whole lines follow it (half a secret is not
   * recognised by the redactor, and whole lines say more), kept when it is the last line, which is
   * usually the one that says why the server died.
   */
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
