// When a question is passed on, on a fake clock: the devices at N minutes (approvals sooner), the
// channels M minutes later or at N with no device, quiet hours holding the channels only, the
// desk in use holding everything, and an answer cancelling what was pending.
import { describe, expect, it } from "vitest";
import { Escalation, quietMinutesLeft, type EscalationDeps } from "../../../../src/main/reach/escalation";
import { DEFAULT_SETTINGS, type ReachSettings } from "../../../../src/main/reach/settings-file";
import type { PendingEntry } from "../../../../src/shared/types";
import { FakeClock } from "../../../helpers/fake-clock";

function setup(options: { settings?: Partial<ReachSettings>; devices?: boolean; idle?: () => number | undefined } = {}) {
  const clock = new FakeClock();
  const sent: string[] = [];
  const settings: ReachSettings = { ...DEFAULT_SETTINGS, ...options.settings };
  const deps: EscalationDeps = {
    clock,
    settings: () => settings,
    // Minutes of the day in UTC, so the test does not depend on the machine's time zone.
    minuteOfDay: (ms) => Math.floor(ms / 60_000) % (24 * 60),
    hasDevices: () => options.devices ?? true,
    toDevices: (e) => sent.push(`devices:${e.request.id}@${(clock.now() - e.receivedAt) / 60_000}`),
    toChannels: (e) => sent.push(`channels:${e.request.id}@${(clock.now() - e.receivedAt) / 60_000}`),
    ...(options.idle ? { idleSeconds: options.idle } : {}),
  };
  const escalation = new Escalation(deps);
  const ask = (id: string, kind = "input"): PendingEntry => {
    const entry = { request: { id, kind, prompt: "?" }, source: { server: "s" }, receivedAt: clock.now() };
    escalation.track(entry);
    return entry;
  };
  return { clock, sent, escalation, ask };
}

describe("escalation", () => {
  it("tells the devices at 2 minutes and the channels 3 minutes later", () => {
    const { clock, sent, ask } = setup();
    ask("q1");
    clock.advance(119_999);
    expect(sent).toEqual([]);
    clock.advance(1);
    expect(sent).toEqual(["devices:q1@2"]);
    clock.advanceMinutes(2.9);
    expect(sent).toEqual(["devices:q1@2"]);
    clock.advanceMinutes(0.1);
    expect(sent).toEqual(["devices:q1@2", "channels:q1@5"]);
    clock.advanceMinutes(60);
    expect(sent).toHaveLength(2);
    expect(clock.waiting).toBe(0);
  });

  it("asks sooner for an approval, and uses the channels at once when no device allows notifications", () => {
    const { clock, sent, ask } = setup({ devices: false });
    ask("a1", "approval");
    ask("q1");
    clock.advanceMinutes(1);
    expect(sent).toEqual(["channels:a1@1"]);
    clock.advanceMinutes(1);
    expect(sent).toEqual(["channels:a1@1", "channels:q1@2"]);
  });

  it("cancels what was pending once the question is answered or withdrawn", () => {
    const { clock, sent, ask, escalation } = setup();
    ask("q1");
    ask("q2");
    escalation.settle("q1");
    clock.advanceMinutes(2);
    expect(sent).toEqual(["devices:q2@2"]);
    escalation.settle("q2");
    clock.advanceMinutes(10);
    expect(sent).toEqual(["devices:q2@2"]);
    expect(clock.waiting).toBe(0);
  });

  it("holds everything back while the desk is in use, and goes on once it has been idle a minute", () => {
    let lastUse = 0;
    const box = { clock: undefined as FakeClock | undefined };
    const s = setup({ idle: () => (box.clock!.now() - lastUse) / 1000 });
    box.clock = s.clock;
    lastUse = s.clock.now();
    s.ask("q1");
    // The person keeps typing: at 2 minutes they used it 10 s ago.
    s.clock.advance(110_000);
    lastUse = s.clock.now();
    s.clock.advance(10_000);
    expect(s.sent).toEqual([]);
    // They leave at 1:50; the desk counts as idle from 2:50.
    s.clock.advance(49_000);
    expect(s.sent).toEqual([]);
    s.clock.advance(1_000);
    expect(s.sent).toEqual(["devices:q1@2.8333333333333335"]);
  });

  it("does not hold back when the person turned the hold off", () => {
    const { clock, sent, ask } = setup({ settings: { holdAtDesk: false }, idle: () => 0 });
    ask("q1");
    clock.advanceMinutes(2);
    expect(sent).toEqual(["devices:q1@2"]);
  });

  it("keeps the channels quiet during quiet hours but still tells the devices", () => {
    // The fake clock starts at 12:00 UTC; quiet from 11:00 to 12:30.
    const { clock, sent, ask } = setup({ settings: { quietHours: { start: "11:00", end: "12:30" } } });
    ask("q1");
    clock.advanceMinutes(2);
    expect(sent).toEqual(["devices:q1@2"]);
    clock.advanceMinutes(3);
    expect(sent).toEqual(["devices:q1@2"]);
    clock.advanceMinutes(24);
    expect(sent).toEqual(["devices:q1@2"]);
    clock.advanceMinutes(1);
    expect(sent).toEqual(["devices:q1@2", "channels:q1@30"]);
  });

  it("reads quiet hours across midnight", () => {
    const quiet = { start: "22:00", end: "07:00" };
    expect(quietMinutesLeft(quiet, 23 * 60)).toBe(8 * 60);
    expect(quietMinutesLeft(quiet, 6 * 60 + 59)).toBe(1);
    expect(quietMinutesLeft(quiet, 7 * 60)).toBe(0);
    expect(quietMinutesLeft(quiet, 12 * 60)).toBe(0);
    expect(quietMinutesLeft(undefined, 23 * 60)).toBe(0);
  });
});
