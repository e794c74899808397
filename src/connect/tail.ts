/** Keeps the last `limit` bytes of a stream (a server's stderr), whatever it writes. */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.limit && this.chunks.length > 1) this.size -= this.chunks.shift()!.length;
    if (this.size > this.limit) {
      this.chunks = [this.chunks[0]!.subarray(this.size - this.limit)];
      this.size = this.limit;
    }
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}
