// Finding who holds a port: the /proc/net/tcp{,6} rows that block binding 127.0.0.1:PORT (the
// address itself and the wildcards, LISTEN only), and the live lookup against a real listener.
import { describe, expect, it } from "vitest";
import { createServer } from "node:net";
import { endianness } from "node:os";
import { describePortHolder, findPortHolder, listeningInodes } from "../../../../src/main/base/port-holder";

const HEADER = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode";
const row = (local: string, state: string, inode: string) => `   0: ${local} 00000000:0000 ${state} 00000000:00000000 00:00000000 00000000  1000        0 ${inode} 1 0000000000000000 100 0 0 10 0`;

describe.runIf(endianness() === "LE")("listeningInodes (little-endian /proc)", () => {
  it("takes 127.0.0.1, 0.0.0.0, :: and ::ffff:127.0.0.1 listeners on the port, nothing else", () => {
    const tcp = [HEADER, row("0100007F:1C93", "0A", "111"), row("00000000:1C93", "0A", "222"), row("0100007F:1C93", "01", "333"), row("0100007F:1C94", "0A", "444"), row("0200007F:1C93", "0A", "555")].join("\n");
    const tcp6 = [HEADER, row("00000000000000000000000000000000:1C93", "0A", "666"), row("0000000000000000FFFF00000100007F:1C93", "0A", "777"), row("00000000000000000000000001000000:1C93", "0A", "888")].join("\n");
    expect([...listeningInodes(7315, [tcp, tcp6])].sort()).toEqual(["111", "222", "666", "777"]);
  });

  it("ignores short rows, inode 0 and garbage", () => {
    const tcp = [HEADER, "garbage", row("0100007F:1C93", "0A", "0"), row("0100007F:1C93", "0A", "12x"), ""].join("\n");
    expect(listeningInodes(7315, [tcp, ""]).size).toBe(0);
  });
});

describe.runIf(process.platform === "linux")("findPortHolder on this machine", () => {
  it("names this process for a port it listens on, and nothing for a free one", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      expect(findPortHolder(port)).toEqual({ pid: process.pid, name: expect.stringMatching(/^[\x20-\x7e]+$/) });
      expect(describePortHolder(port)).toMatch(new RegExp(`^, held by .+ \\(pid ${process.pid}\\)$`));
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(findPortHolder(port)).toBeUndefined();
    expect(describePortHolder(port)).toBe("");
  });
});
