// ntfy's Allow/Deny links: accepted once, while fresh, and only as signed.
import { describe, expect, it } from "vitest";
import { createSignedActions } from "../../../../src/main/reach/signed-actions";
import { FakeClock } from "../../../helpers/fake-clock";

const claim = { id: "hook-1", receivedAt: 1234, choice: "allow" as const };

describe("signed actions", () => {
  it("accepts a token once and refuses the replay", () => {
    const actions = createSignedActions({ clock: new FakeClock() });
    const token = actions.mint(claim);
    expect(actions.consume(token)).toEqual({ ok: true, claim });
    expect(actions.consume(token)).toMatchObject({ ok: false, status: 410, message: "This link was already used." });
  });

  it("refuses an expired token", () => {
    const clock = new FakeClock();
    const actions = createSignedActions({ clock, ttlMs: 60_000 });
    const token = actions.mint(claim);
    clock.advance(60_000);
    expect(actions.consume(token)).toMatchObject({ ok: false, status: 410 });
  });

  it("refuses a changed choice, a token of another key, and garbage, all alike", () => {
    const clock = new FakeClock();
    const actions = createSignedActions({ clock });
    const token = actions.mint(claim);
    const [body, mac] = token.split(".");
    const payload = JSON.parse(Buffer.from(body, "base64url").toString()) as Record<string, unknown>;
    const denied = Buffer.from(JSON.stringify({ ...payload, c: "deny" })).toString("base64url");
    const other = createSignedActions({ clock }).mint(claim);
    for (const bad of [`${denied}.${mac}`, other, "", "a.b", `${token}.x`, "x".repeat(600), `${body}.`]) {
      expect(actions.consume(bad), bad.slice(0, 40)).toEqual({ ok: false, status: 403, message: "Refused." });
    }
    // The real one still works after all that.
    expect(actions.consume(token).ok).toBe(true);
  });
});
