// The line reader under stdio servers and the keychain helper: lines across chunk borders, CRLF,
// and an endless line refused at its bound in linear time (the SDK's reader rescans per chunk).
import { describe, expect, it } from "vitest";
import { LineSplitter, LineTooLongError } from "../../../../src/main/base/line-splitter";

const b = (text: string) => Buffer.from(text, "utf8");

describe("LineSplitter", () => {
  it("gives each complete line once, across chunk borders, without \\r\\n", () => {
    const lines = new LineSplitter(1024);
    expect(lines.push(b('{"a":1}\n{"b"'))).toEqual(['{"a":1}']);
    expect(lines.push(b(":2"))).toEqual([]);
    expect(lines.push(b('}\r\n\n{"c":"é'))).toEqual(['{"b":2}', ""]);
    expect(lines.push(b('"}\n'))).toEqual(['{"c":"é"}']);
  });

  it("keeps a multi-byte character split between chunks whole", () => {
    const lines = new LineSplitter(1024);
    const text = b("✓\n");
    expect(lines.push(text.subarray(0, 1))).toEqual([]);
    expect(lines.push(text.subarray(1))).toEqual(["✓"]);
  });

  it("refuses a line past its bound, forgets it, and reads the next one", () => {
    const lines = new LineSplitter(10);
    expect(lines.push(b("0123456789\n"))).toEqual(["0123456789"]);
    lines.push(b("01234"));
    expect(() => lines.push(b("567890"))).toThrow(LineTooLongError);
    expect(() => lines.push(b("x".repeat(11)))).toThrow(/sent a message over 10 bytes without ending it/);
    expect(lines.push(b("ok\n"))).toEqual(["ok"]);
  });

  it("an endless line of 64 MiB in 64 KiB chunks is refused in linear time", () => {
    const max = 64 * 1024 * 1024;
    const lines = new LineSplitter(max);
    const chunk = Buffer.alloc(64 * 1024, 0x78);
    const started = performance.now();
    let refused = false;
    for (let sent = 0; sent <= max + chunk.length && !refused; sent += chunk.length) {
      try {
        lines.push(chunk);
      } catch (error) {
        refused = error instanceof LineTooLongError;
      }
    }
    expect(refused).toBe(true);
    // Rejoining and rescanning the line per chunk would copy ~512 × 64 MiB here; one pass is instant.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
