// Pairing attempts and refused keys, counted per address: a device guessing codes or keys is held
// back long before the guesses matter (a code is 128 bits, a key 256). A fixed window per address,
// and a bounded table of addresses.

export class AddressLimit {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxAddresses = 4096,
  ) {}

  /** Counts one attempt from `address`; false once it is past the bound of its window. */
  take(address: string): boolean {
    const now = this.now();
    let window = this.windows.get(address);
    if (!window || now - window.start >= this.windowMs) {
      if (!window && this.windows.size >= this.maxAddresses) this.prune(now);
      if (!window && this.windows.size >= this.maxAddresses) return false;
      window = { start: now, count: 0 };
      this.windows.set(address, window);
    }
    window.count += 1;
    return window.count <= this.max;
  }

  /** Whether `address` is past its bound now, without counting. */
  blocked(address: string): boolean {
    const window = this.windows.get(address);
    return window !== undefined && this.now() - window.start < this.windowMs && window.count > this.max;
  }

  private prune(now: number): void {
    for (const [address, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(address);
  }
}
