// The session caps' policy alone: the idle deadline by load, reservations counted before their
// session exists, and which session makes room at a cap.
import { afterEach, describe, expect, it } from "vitest";
import { SessionCaps, type CappedSession } from "../../../../src/main/gateway/session-caps";

const made: Array<SessionCaps<CappedSession>> = [];
afterEach(() => {
  for (const caps of made.splice(0)) caps.close();
});

function setup(perCredential: number, total: number) {
  const sessions = new Map<string, CappedSession>();
  const ended: string[] = [];
  const caps = new SessionCaps(sessions, (id) => void (sessions.delete(id) && ended.push(id)), { perCredential, total, maxIdleMs: 60_000, minIdleMs: 1_000 });
  made.push(caps);
  const add = (id: string, open = 0, lastSeen = Date.now(), credential = "gateway-token") => sessions.set(id, { credential, open, lastSeen });
  return { sessions, ended, caps, add };
}

describe("SessionCaps", () => {
  it("keeps the full idle deadline to half a cap, then falls linearly to the least at the cap", () => {
    const { caps, add } = setup(8, 100);
    for (let i = 0; i < 4; i++) add(`s${i}`);
    expect(caps.idleDeadline("gateway-token")).toBe(60_000);
    for (let i = 4; i < 6; i++) add(`s${i}`);
    expect(caps.idleDeadline("gateway-token")).toBe(30_500);
    for (let i = 6; i < 8; i++) add(`s${i}`);
    expect(caps.idleDeadline("gateway-token")).toBe(1_000);
    // Another credential with few sessions still feels the total's load only.
    expect(caps.idleDeadline("other")).toBe(60_000);
  });

  it("counts initializes under way, so a burst cannot open more than the cap", () => {
    const { caps } = setup(2, 10);
    expect(caps.reserve("gateway-token")).toBeUndefined();
    expect(caps.reserve("gateway-token")).toBeUndefined();
    expect(caps.reserve("gateway-token")).toMatch(/MAX_MCP_SESSIONS_PER_CREDENTIAL/);
    caps.opened("gateway-token");
    expect(caps.reserve("gateway-token")).toBeUndefined();
  });

  it("at a cap ends the least recently used idle session, never one in use", () => {
    const { caps, add, ended } = setup(3, 10);
    add("busy-old", 1, 1);
    add("idle-old", 0, 2);
    add("idle-new", 0, 3);
    expect(caps.reserve("gateway-token")).toBeUndefined();
    expect(ended).toEqual(["idle-old"]);
  });
});
