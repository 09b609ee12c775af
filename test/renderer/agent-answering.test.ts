// Gateway "who answers: the agent": the page lists the question with who is answering it, says so
// above the form, and neither notifies nor takes the screen for it.
import { describe, it, expect, vi } from "vitest";
import { render, screen, within } from "@testing-library/svelte";
import App from "../../src/renderer/App.svelte";
import { Page } from "../../src/renderer/lib/page.svelte";
import { fakeApi, formEntry } from "./fake-api";

const schema = { type: "object", properties: { name: { type: "string", title: "Name" } } };

describe("a question an agent is answering itself", () => {
  it("is listed with the agent answering, and the pane says the person may answer for it", async () => {
    const api = fakeApi();
    render(App, { props: { connection: { api, mode: "electron" } } });
    await screen.findByRole("navigation", { name: "Main" });
    api.emit("inbox:event", { type: "added", entry: { ...formEntry(schema, "Pick a name"), answering: "cursor" } });
    const list = await screen.findByRole("list", { name: "Pending questions" });
    expect(within(list).getByRole("button", { name: /Pick a name/ }).textContent).toContain("cursor is answering");
    within(list).getByRole("button", { name: /Pick a name/ }).click();
    expect((await screen.findByRole("note")).textContent).toContain("cursor is answering this itself");
  });

  it("sends no notification and does not take the screen; a question for the person does", async () => {
    const notify = vi.fn();
    const api = fakeApi();
    const page = new Page(api, { notify });
    const stop = page.start();
    await new Promise((r) => setTimeout(r, 0));
    api.emit("inbox:event", { type: "added", entry: { ...formEntry(schema), answering: "cursor" } });
    expect(page.inbox.pending).toHaveLength(1);
    expect(notify).not.toHaveBeenCalled();
    expect(page.question.focusSeq).toBe(0);
    api.emit("inbox:event", { type: "added", entry: formEntry(schema) });
    expect(notify).toHaveBeenCalledTimes(1);
    stop();
  });
});
