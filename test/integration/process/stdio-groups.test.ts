// GroupStdioTransport and the list of live groups: each server's group is listed while it lives,
// and what a server leaves in its group when it exits on its own is ended too.
import { afterEach, describe, expect, it } from "vitest";
import { GroupStdioTransport } from "../../../src/main/mcp/connection/stdio-transport";
import { liveGroups, onGroupEvent, type GroupEvent } from "../../../src/main/process/groups";
import { isAlive, membersOf, waitForGroupGone } from "./helpers";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function record(): GroupEvent[] {
  const events: GroupEvent[] = [];
  cleanups.push(onGroupEvent((e) => events.push(e)));
  return events;
}

describe("GroupStdioTransport's process group", () => {
  it("is listed from spawn until close() has ended it", async () => {
    const events = record();
    const transport = new GroupStdioTransport({ command: "/bin/sh", args: ["-c", "trap '' TERM; sleep 300 & wait"], env: {}, killGraceMs: 300 });
    await transport.start();
    const pgid = transport.pid!;
    cleanups.push(() => membersOf(pgid).forEach((p) => process.kill(p, "SIGKILL")));
    expect(liveGroups().map((g) => g.pgid)).toContain(pgid);
    expect(events[0]).toMatchObject({ type: "started", group: { pgid, command: expect.stringContaining("/bin/sh -c") } });
    await transport.close();
    expect(await waitForGroupGone(pgid, 2000)).toBe(true);
    expect(liveGroups().map((g) => g.pgid)).not.toContain(pgid);
    expect(events.map((e) => e.type)).toEqual(["started", "ended"]);
  });

  it("ends what a server left in its group when it exits on its own, SIGTERM-ignoring leftovers included", async () => {
    const events = record();
    // The "server" exits at once; its sleep ignores SIGTERM and holds the stdio pipes.
    const transport = new GroupStdioTransport({ command: "/bin/sh", args: ["-c", "trap '' TERM; sleep 300 & exit 0"], env: {}, killGraceMs: 300 });
    const closed = new Promise<void>((r) => (transport.onclose = () => r()));
    await transport.start();
    const pgid = transport.pid!;
    cleanups.push(() => membersOf(pgid).forEach((p) => process.kill(p, "SIGKILL")));
    expect(await waitForGroupGone(pgid, 3000)).toBe(true);
    // With the leftover gone the pipes close, so the connection learns the server ended.
    await closed;
    await expect.poll(() => events.map((e) => e.type), { timeout: 2000 }).toEqual(["started", "ended"]);
    expect(membersOf(pgid).filter(isAlive)).toEqual([]);
  });
});
