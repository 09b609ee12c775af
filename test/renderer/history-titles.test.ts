// History's Details show a choice the way the form showed it: the option's title, not its value.
import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import History from "../../src/renderer/components/History.svelte";
import { historyCall } from "./fake-api";
import type { HistoryInfo, HistoryRecord } from "../../src/shared/history";
import type { Envelope } from "../../src/shared/contract";

const ok = <T,>(value: T): Envelope<T> => ({ ok: true, value });

describe("History details", () => {
  it("show option titles and field titles", async () => {
    const record: HistoryRecord = {
      rowId: 1,
      requestId: "elc-1",
      kind: "input",
      prompt: "Pick a hero",
      server: "everything",
      fields: [{ key: "titledSingleSelectEnum", title: "Titled Single Select Enum", options: [{ value: "hero-1", title: "Hero 1" }] }],
      outcome: "accepted",
      answer: { titledSingleSelectEnum: "hero-1" },
      receivedAt: Date.now() - 1000,
    };
    const info: HistoryInfo = { enabled: true, days: 90, status: { state: "ok", path: "/h.sqlite", dropped: 0, search: "fts5" } };
    const client = { list: vi.fn(async () => ok({ items: [record], hasMore: false })), clear: vi.fn(async () => ok({ removed: 0 })), settings: vi.fn(async () => ok(info)) };
    render(History, { props: { call: historyCall(client) } });
    const item = (await within(await waitFor(() => screen.getByRole("list", { name: "History records" }))).findAllByRole("listitem"))[0]!;
    await fireEvent.click(within(item).getByText("Details"));
    const details = item.querySelector("dl")!;
    expect(details.textContent).toContain("Titled Single Select Enum");
    expect(details.textContent).toContain("Hero 1");
    expect(details.textContent).not.toContain("hero-1");
  });
});
