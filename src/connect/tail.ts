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
   * Once cut, the first line is a fragment: dropped, because half a secret is not recognised by
   * the redactor (and half a character is not text).
   */
  text(): string {
    const text = Buffer.concat(this.chunks).toString('utf8');
    if (!this.cut) return text;
    const nl = text.indexOf('\n');
    return nl < 0 ? '' : text.slice(nl + 1);
  }
}
