// A stdio server that dies at start often writes why to stderr just before it goes; its connect
// can fail (its stdin closed) before that output is read. outputSettled lets the failure wait for
// the stderr pipe to close, briefly, so the message quotes what the server said.
import { describe, expect, it } from "vitest";
import { GroupStdioTransport } from "../../../../../src/main/mcp/connection/stdio-transport";

const script = `setTimeout(() => { process.stderr.write("boom: no API key\\n"); setTimeout(() => process.exit(1), 20); }, 200);`;

describe("GroupStdioTransport.outputSettled", () => {
  it("waits for a dying server's last stderr", async () => {
    const transport = new GroupStdioTransport({ command: process.execPath, args: ["-e", script], env: {} });
    await transport.start();
    expect(transport.stderrTail()).toBe("");
    const started = Date.now();
    await transport.outputSettled(5_000);
    expect(transport.stderrTail()).toBe("boom: no API key");
    expect(Date.now() - started).toBeLessThan(4_000);
    await transport.close();
  });

  it("waits no longer than asked while the server lives on", async () => {
    const transport = new GroupStdioTransport({ command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"], env: {} });
    await transport.start();
    const started = Date.now();
    await transport.outputSettled(150);
    expect(Date.now() - started).toBeLessThan(1_500);
    await transport.close();
  });
});
