import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import History from "../../src/renderer/components/History.svelte";
import { callOf, historyCall } from "./fake-api";
import type { HistoryInfo, HistoryPage, HistoryQuery, HistoryRecord } from "../../src/shared/history";
import type { Envelope } from "../../src/shared/contract";

const NOW = Date.UTC(2026, 10, 30, 12);
const ok = <T,>(value: T): Envelope<T> => ({ ok: true, value });

function rec(i: number, over: Partial<HistoryRecord> = {}): HistoryRecord {
  return {
    rowId: i,
    requestId: `elc-${i}`,
    kind: "input",
    prompt: `Question number ${i}`,
    server: "github",
    agent: "cursor",
    fields: [{ key: "branch", title: "Branch" }, { key: "token", title: "Token" }],
    outcome: "accepted",
    by: "person",
    answer: { branch: "main", token: "••••••" },
    receivedAt: NOW - i * 60_000,
    settledAt: NOW - i * 60_000 + 1500,
    answerMs: 1500,
    ...over,
  };
}

function fakeClient(records: HistoryRecord[], info: Partial<HistoryInfo> = {}) {
  let settings: HistoryInfo = { enabled: true, days: 90, status: { state: "ok", path: "/data/history.sqlite", dropped: 0, search: "fts5" }, ...info };
  let rows = records;
  const client = {
    list: vi.fn(async (q: HistoryQuery): Promise<Envelope<HistoryPage>> => {
      const matching = rows.filter((r) => (!q.query || r.prompt.toLowerCase().includes(q.query.toLowerCase())) && (!q.outcome || r.outcome === q.outcome) && (!q.since || r.receivedAt >= q.since));
      const page = matching.slice(q.offset ?? 0, (q.offset ?? 0) + (q.limit ?? 100));
      return ok({ items: page, hasMore: (q.offset ?? 0) + page.length < matching.length });
    }),
    clear: vi.fn(async () => {
      const removed = rows.length;
      rows = [];
      return ok({ removed });
    }),
    settings: vi.fn(async (change: { enabled?: boolean; days?: number }) => {
      settings = { ...settings, ...change };
      return ok(settings);
    }),
  };
  return client;
}

const list = () => screen.getByRole("list", { name: "History records" });

describe("History view", () => {
  it("lists questions with outcome, who settled it, who asked, and the masked answer in Details", async () => {
    render(History, { props: { call: historyCall(fakeClient([rec(1), rec(2, { outcome: "expired", by: "companion", reason: "the question expired", answer: undefined })])), now: () => NOW } });
    const items = await within(await waitFor(list)).findAllByRole("listitem");
    expect(items).toHaveLength(2);
    const first = within(items[0]);
    expect(first.getByRole("heading", { name: "Question number 1" })).toBeTruthy();
    expect(items[0].textContent).toMatch(/Accepted\s*by you/);
    expect(items[0].textContent).toContain("github for cursor");
    expect(items[0].textContent).toContain("answered in 1.5 s");
    fireEvent.click(first.getByText("Details"));
    expect(items[0].textContent).toMatch(/Branch\s*main/);
    expect(items[0].textContent).toMatch(/Token\s*••••••/);
    expect(items[1].textContent).toMatch(/Expired\s*by the companion/);
    expect(items[1].textContent).toContain("Why: the question expired");
  });

  it("shows a grouped flood of refusals with its count", async () => {
    render(History, { props: { call: historyCall(fakeClient([rec(1, { outcome: "refused", by: "companion", repeats: 22, answer: undefined, answerMs: 0 })])), now: () => NOW } });
    const [item] = await within(await waitFor(list)).findAllByRole("listitem");
    expect(item.textContent).toMatch(/Refused 22 times\s*by the companion/);
  });

  it("searches as the person types (debounced) and filters by outcome and time", async () => {
    const client = fakeClient([rec(1, { prompt: "Deploy main?" }), rec(2, { prompt: "Delete the branch?", outcome: "declined" }), rec(60 * 24 * 3, { prompt: "Deploy old?" })]);
    render(History, { props: { call: historyCall(client), now: () => NOW } });
    await within(await waitFor(list)).findAllByRole("listitem");
    const search = screen.getByRole("searchbox", { name: "Search" });
    await fireEvent.input(search, { target: { value: "deploy" } });
    await waitFor(() => expect(within(list()).getAllByRole("listitem")).toHaveLength(2));
    expect(client.list).toHaveBeenLastCalledWith(expect.objectContaining({ query: "deploy", offset: 0, limit: 100 }));
    await fireEvent.change(screen.getByRole("combobox", { name: "When" }), { target: { value: "1" } });
    await waitFor(() => expect(within(list()).getAllByRole("listitem").map((li) => li.querySelector("h3")?.textContent)).toEqual(["Deploy main?"]));
    expect(client.list).toHaveBeenLastCalledWith(expect.objectContaining({ since: NOW - 86_400_000 }));
    await fireEvent.input(search, { target: { value: "" } });
    await fireEvent.change(screen.getByRole("combobox", { name: "Outcome" }), { target: { value: "declined" } });
    await waitFor(() => expect(within(list()).getAllByRole("listitem").map((li) => li.querySelector("h3")?.textContent)).toEqual(["Delete the branch?"]));
  });

  it("pages with Show more", async () => {
    const client = fakeClient(Array.from({ length: 150 }, (_, i) => rec(i + 1)));
    render(History, { props: { call: historyCall(client), now: () => NOW } });
    await waitFor(() => expect(within(list()).getAllByRole("listitem")).toHaveLength(100));
    await fireEvent.click(screen.getByRole("button", { name: "Show more" }));
    await waitFor(() => expect(within(list()).getAllByRole("listitem")).toHaveLength(150));
    expect(screen.queryByRole("button", { name: "Show more" })).toBeNull();
  });

  it("turns history off, changes the days to keep, and clears only after confirming", async () => {
    const client = fakeClient([rec(1)]);
    render(History, { props: { call: historyCall(client), now: () => NOW } });
    const keep = (await screen.findByRole("checkbox", { name: "Keep history" })) as HTMLInputElement;
    expect(keep.checked).toBe(true);
    await fireEvent.click(keep);
    await waitFor(() => expect(client.settings).toHaveBeenLastCalledWith({ enabled: false }));
    const days = screen.getByRole("spinbutton", { name: "Days to keep" }) as HTMLInputElement;
    expect(days.value).toBe("90");
    await fireEvent.input(days, { target: { value: "30" } });
    await fireEvent.change(days);
    await waitFor(() => expect(client.settings).toHaveBeenLastCalledWith({ days: 30 }));

    await fireEvent.click(screen.getByRole("button", { name: "Clear history" }));
    expect(client.clear).not.toHaveBeenCalled();
    await fireEvent.click(screen.getByRole("button", { name: "Clear all history" }));
    await waitFor(() => expect(client.clear).toHaveBeenCalledTimes(1));
    expect(await screen.findByText("History is off: nothing is being kept.")).toBeTruthy();
  });

  it("shows a locked or unavailable store as a notice, not an error page", async () => {
    render(History, { props: { call: historyCall(fakeClient([], { status: { state: "ok", path: "/h", dropped: 2, detail: "the database is locked by another connection", search: "fts5" } })) } });
    expect((await screen.findByRole("status")).textContent).toMatch(/not being recorded right now: the database is locked.*Answering is not affected/);
  });

  it("says so when the companion refuses history", async () => {
    const refused = async (): Promise<Envelope<never>> => ({ ok: false, error: { code: "history-unavailable", message: "This companion does not keep history yet." } });
    render(History, { props: { call: callOf({ "history:list": refused, "history:clear": refused, "history:settings": refused }) } });
    expect((await screen.findByRole("alert")).textContent).toBe("This companion does not keep history yet.");
  });
});
