// One vocabulary: a plain link is a "Link", only the companion's own OAuth sign-in is a
// "Sign-in"; outcomes read the same in History and after answering, and a "no" is never in the
// success colour; an agent's own question is asked by the agent; a disabled Accept says why.
import { describe, expect, it, vi } from "vitest";
import { render, screen, waitFor, within } from "@testing-library/svelte";
import History from "../../src/renderer/components/History.svelte";
import AskedBy from "../../src/renderer/components/AskedBy.svelte";
import QuestionForm from "../../src/renderer/components/QuestionForm.svelte";
import type { HistoryInfo, HistoryRecord } from "../../src/shared/history";
import { kindLabel, outcomeTone, outcomeWord, SIGN_IN_ID_PREFIX } from "../../src/shared/words";
import { checkFor, formEntry, historyCall, ok } from "./fake-api";
import type { AnswerInput } from "../../src/shared/contract";

const NOW = Date.UTC(2026, 10, 30, 12);

function rec(i: number, over: Partial<HistoryRecord>): HistoryRecord {
  return { rowId: i, requestId: `elc-${i}`, kind: "input", prompt: `Question ${i}`, server: "github", fields: [], outcome: "accepted", receivedAt: NOW - i * 60_000, ...over };
}

function historyOf(records: HistoryRecord[]) {
  const info: HistoryInfo = { enabled: true, days: 90, status: { state: "ok", path: "/h.sqlite", dropped: 0, search: "fts5" } };
  return historyCall({
    list: vi.fn(async () => ok({ items: records, hasMore: false })),
    clear: vi.fn(async () => ok({ removed: 0 })),
    settings: vi.fn(async () => ok(info)),
  });
}

describe("the words", () => {
  it("call a URL question a Link unless it is the companion's own sign-in", () => {
    expect(kindLabel("authorization", "elc-1")).toBe("Link");
    expect(kindLabel("authorization", `${SIGN_IN_ID_PREFIX}1`)).toBe("Sign-in");
    expect(kindLabel("input")).toBe("Form");
    expect(kindLabel("approval")).toBe("Approval");
    expect(kindLabel("deploy-check")).toBe("deploy-check");
  });

  it("give every outcome its word and a tone; only a yes is green", () => {
    expect(["accepted", "declined", "cancelled", "expired", "withdrawn"].map((o) => outcomeWord(o as never))).toEqual(["Accepted", "Declined", "Cancelled", "Expired", "Withdrawn"]);
    expect(outcomeTone("accepted")).toBe("yes");
    for (const o of ["declined", "refused"] as const) expect(outcomeTone(o)).toBe("no");
    for (const o of ["cancelled", "expired", "withdrawn"] as const) expect(outcomeTone(o)).toBe("ended");
  });
});

describe("History speaks the same words", () => {
  it("a plain link is a Link, a sign-in a Sign-in, and declined/cancelled are not in the success tone", async () => {
    render(History, {
      props: {
        call: historyOf([
          rec(1, { kind: "authorization", requestId: "elc-link", url: "https://example.com/consent" }),
          rec(2, { kind: "authorization", requestId: `${SIGN_IN_ID_PREFIX}x`, url: "https://auth.example.com/authorize" }),
          rec(3, { outcome: "declined" }),
          rec(4, { outcome: "cancelled" }),
        ]),
        now: () => NOW,
      },
    });
    const items = await within(await waitFor(() => screen.getByRole("list", { name: "History records" }))).findAllByRole("listitem");
    expect(items.map((i) => i.querySelector(".kind")!.textContent!.trim())).toEqual(["Link", "Sign-in", "Form", "Form"]);
    const outcome = (i: number) => items[i]!.querySelector(".outcome")!;
    expect(outcome(0).className).toContain("tone-yes");
    expect(outcome(2).textContent).toContain("Declined");
    expect(outcome(2).className).toContain("tone-no");
    expect(outcome(3).textContent).toContain("Cancelled");
    expect(outcome(3).className).toContain("tone-ended");
    expect(document.body.textContent).not.toContain("Sign-in link");
  });
});

describe("who asks", () => {
  it("an agent's own question is asked by that agent", () => {
    render(AskedBy, { props: { entry: { request: { id: "deploy-42", kind: "input", prompt: "Deploy?" }, source: { agent: "deploy-bot" }, receivedAt: NOW } } });
    expect(screen.getByText(/Asked by/).textContent!.replace(/\s+/g, " ").trim()).toBe("Asked by deploy-bot");
  });

  it("a server's question names the server and the agent it asked for", () => {
    render(AskedBy, { props: { entry: { request: { id: "elc-1", kind: "input", prompt: "?" }, source: { server: "github", agent: "cursor" }, receivedAt: NOW } } });
    expect(screen.getByText(/Asked by/).textContent!.replace(/\s+/g, " ").trim()).toBe("Asked by github for cursor");
  });
});

describe("a disabled Accept", () => {
  it("says which fields are missing, next to it, and is described by that text", async () => {
    const schema = { type: "object", properties: { name: { type: "string", title: "Your name" }, email: { type: "string", title: "Email", format: "email" } }, required: ["name", "email"] };
    const e = formEntry(schema);
    render(QuestionForm, { props: { entry: e, answer: vi.fn(async (a: AnswerInput) => ok(a)), check: checkFor(schema) } });
    const accept = screen.getByRole("button", { name: "Accept" }) as HTMLButtonElement;
    await waitFor(() => expect(accept.disabled).toBe(true));
    const hint = await screen.findByText(/To accept, fill in or correct/);
    expect(hint.textContent).toBe("To accept, fill in or correct: Your name, Email.");
    expect(accept.getAttribute("aria-describedby")).toBe(hint.id);
  });
});
