// A rule that answers while the page is hidden (the window in the tray, a background tab) is still
// said, with its Undo, when the person comes back: the note waits while hidden and then gets its
// full time. This is what a click on Linux's system note (which has no button) opens onto.
import { afterEach, describe, it, expect, vi } from "vitest";
import { render, screen } from "@testing-library/svelte";
import App from "../../src/renderer/App.svelte";
import { fakeApi, ok } from "./fake-api";
import type { RuleView } from "../../src/shared/rules";

function setVisibility(state: "hidden" | "visible"): void {
  Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}

const rule = {
  id: "rule-h",
  explanation: "Accept the form (Branch) from everything (any tool) with Branch = main, until the companion quits.",
} as RuleView;

describe("App: a rule's note while the page is hidden", () => {
  afterEach(() => {
    vi.useRealTimers();
    setVisibility("visible");
  });

  it("waits while hidden, then shows with Undo for its full time once the page is back", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const api = fakeApi({ "rules:list": async () => ok([rule]) });
    render(App, { props: { connection: { api, mode: "electron" } } });
    await vi.advanceTimersByTimeAsync(50);
    setVisibility("hidden");
    api.emit("inbox:event", { type: "answered", id: "elc-h", answer: { id: "elc-h", ok: true }, by: "rule", ruleId: rule.id });
    await vi.advanceTimersByTimeAsync(60_000);
    const notes = screen.getByRole("status", { name: "Rule notes" });
    expect(notes.textContent).toContain("Answered by your rule");
    setVisibility("visible");
    await vi.advanceTimersByTimeAsync(8_000);
    expect(notes.textContent).toContain("Answered by your rule");
    expect(screen.getByRole("button", { name: "Undo" })).toBeTruthy();
    await vi.advanceTimersByTimeAsync(3_000);
    expect(notes.textContent).not.toContain("Answered by your rule");
  });
});
