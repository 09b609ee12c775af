// Newline-delimited messages off a byte stream (a stdio server's stdout, the keychain helper's
// replies). Each chunk is scanned once and a line's pieces are joined only when it ends, so a
// peer that streams one endless line costs linear time, and past maxBytes it is refused instead
// of growing memory until the process dies. (The SDK's ReadBuffer rejoins and rescans the whole
// buffer per chunk, and throws from inside the stream's data handler at 10 MiB.)

export class LineTooLongError extends Error {
  constructor(readonly maxBytes: number) {
    super(`sent a message over ${maxBytes} bytes without ending it`);
  }
}

export class LineSplitter {
  private parts: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {}

  /** The lines this chunk completes, without "\n" or a "\r" before it. Throws LineTooLongError
   * (and forgets the partial line) when the line being read grows past maxBytes. */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    let end = chunk.indexOf(10);
    while (end >= 0) {
      const piece = chunk.subarray(start, end);
      if (this.size + piece.length > this.maxBytes) return this.refuse();
      const line = this.parts.length === 0 ? piece : Buffer.concat([...this.parts, piece]);
      this.parts = [];
      this.size = 0;
      const text = line.toString("utf8");
      lines.push(text.endsWith("\r") ? text.slice(0, -1) : text);
      start = end + 1;
      end = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      if (this.size + rest.length > this.maxBytes) return this.refuse();
      this.parts.push(rest);
      this.size += rest.length;
    }
    return lines;
  }

  clear(): void {
    this.parts = [];
    this.size = 0;
  }

  private refuse(): never {
    this.clear();
    throw new LineTooLongError(this.maxBytes);
  }
}
