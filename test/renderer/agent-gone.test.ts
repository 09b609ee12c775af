// The page words an agent's disconnect as such: "<agent> disconnected, so this question was
// withdrawn", not "The server withdrew this question", and says it once (no "Why:" repeating it).
import { describe, it, expect } from "vitest";
import { render, screen } from "@testing-library/svelte";
import App from "../../src/renderer/App.svelte";
import { fakeApi, formEntry, ok } from "./fake-api";

describe("App: an agent that disconnected", () => {
  it("says the agent disconnected instead of the server withdrawing the question", async () => {
    const e = formEntry({ type: "object", properties: {} }, "Which branch?");
    const api = fakeApi({ "inbox:list": async () => ok([e]) });
    render(App, { props: { connection: { api, mode: "electron" } } });
    await screen.findByRole("form", { name: "Question" });
    api.emit("inbox:event", { type: "withdrawn", id: e.request.id, reason: "agent-gone", message: "claude-code disconnected" });
    const closed = await screen.findByRole("status", { name: "Question closed" });
    expect(closed.textContent).toContain("claude-code disconnected, so this question was withdrawn");
    expect(closed.textContent).not.toContain("The server withdrew this question");
    expect(closed.textContent).not.toContain("Why:");
  });
});
