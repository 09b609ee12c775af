import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { PendingEntry } from "../../../../src/shared/types";
import { NotificationService, questionNotification, type NotificationContent } from "../../../../src/main/desktop/notifications";

function entry(id: string, prompt: string, server?: string, agent?: string, kind = "input"): PendingEntry {
  return { request: { id, kind, prompt }, source: { ...(server ? { server } : {}), ...(agent ? { agent } : {}) }, receivedAt: Date.now() };
}

interface Shown extends NotificationContent {
  click(): void;
  closed: boolean;
}

function setup(opts: { paused?: boolean } = {}) {
  const shown: Shown[] = [];
  let paused = opts.paused ?? false;
  const openQuestion = vi.fn();
  const openWindow = vi.fn();
  const service = new NotificationService({
    create: (content) => {
      let onClick = () => {};
      const n: Shown = { ...content, click: () => onClick(), closed: false };
      return {
        on: (_event, listener) => {
          onClick = listener;
        },
        show: () => void shown.push(n),
        close: () => {
          n.closed = true;
        },
      };
    },
    isPaused: () => paused,
    openQuestion,
    openWindow,
  });
  return { service, shown, openQuestion, openWindow, setPaused: (p: boolean) => (paused = p) };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date("2026-01-01T10:00:00Z"));
});
afterEach(() => {
  vi.useRealTimers();
});

describe("NotificationService", () => {
  it("shows one notification per question naming server, agent and prompt; a click opens it", () => {
    const t = setup();
    t.service.added(entry("elc-1", "Which branch should I deploy?", "github", "claude-code"));
    expect(t.shown).toHaveLength(1);
    expect(t.shown[0]).toMatchObject({ title: "github (via claude-code) asks", body: "Which branch should I deploy?" });
    t.shown[0].click();
    expect(t.openQuestion).toHaveBeenCalledWith("elc-1");
  });

  it("words authorization questions as a link to open, and never carries the url", () => {
    const content = questionNotification({
      request: { id: "a", kind: "authorization", prompt: "Sign in to GitHub", url: "https://github.com/login" },
      source: { server: "github" },
      receivedAt: 0,
    });
    expect(content).toEqual({ title: "github asks you to open a link", body: "Sign in to GitHub" });
  });

  it("words the companion's own OAuth sign-in as a sign-in, not a plain link", () => {
    const content = questionNotification({
      request: { id: "signin-1", kind: "authorization", prompt: "Sign in to \"linear\"", url: "https://auth.example.com/authorize" },
      source: { server: "linear" },
      receivedAt: 0,
    });
    expect(content.title).toBe("linear asks you to sign in");
    expect(JSON.stringify(content)).not.toContain("auth.example.com");
  });

  it("summarises a flood from one server: two shown, the rest in one summary after the window", () => {
    const t = setup();
    for (let i = 1; i <= 5; i++) t.service.added(entry(`q${i}`, `question ${i}`, "github"));
    expect(t.shown.map((n) => n.body)).toEqual(["question 1", "question 2"]);
    vi.advanceTimersByTime(4_999);
    expect(t.shown).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(t.shown).toHaveLength(3);
    expect(t.shown[2]).toMatchObject({ title: "3 more questions from github" });
    t.shown[2].click();
    expect(t.openWindow).toHaveBeenCalled();
  });

  it("counts sources apart: a flood from one server does not silence another", () => {
    const t = setup();
    for (let i = 1; i <= 4; i++) t.service.added(entry(`g${i}`, `g${i}`, "github"));
    t.service.added(entry("j1", "jira question", "jira"));
    expect(t.shown.map((n) => n.body)).toEqual(["g1", "g2", "jira question"]);
  });

  it("a slow trickle is never summarised", () => {
    const t = setup();
    for (let i = 1; i <= 4; i++) {
      t.service.added(entry(`q${i}`, `q${i}`, "github"));
      vi.advanceTimersByTime(3_000);
    }
    vi.advanceTimersByTime(10_000);
    expect(t.shown.map((n) => n.body)).toEqual(["q1", "q2", "q3", "q4"]);
  });

  it("a single held question is shown as itself, and answered ones are left out of the summary", () => {
    const t = setup();
    t.service.added(entry("q1", "q1", "github"));
    t.service.added(entry("q2", "q2", "github"));
    t.service.added(entry("q3", "q3", "github"));
    t.service.added(entry("q4", "q4", "github"));
    t.service.removed("q4");
    vi.advanceTimersByTime(5_000);
    expect(t.shown.map((n) => n.title)).toEqual(["github asks", "github asks", "github asks"]);
    expect(t.shown[2].body).toBe("q3");
  });

  it("a continuing flood keeps being summarised window by window", () => {
    const t = setup();
    for (let i = 1; i <= 4; i++) t.service.added(entry(`a${i}`, `a${i}`, "github"));
    vi.advanceTimersByTime(5_000);
    for (let i = 1; i <= 3; i++) {
      t.service.added(entry(`b${i}`, `b${i}`, "github"));
      vi.advanceTimersByTime(1_000);
    }
    vi.advanceTimersByTime(5_000);
    expect(t.shown.map((n) => n.title)).toEqual(["github asks", "github asks", "2 more questions from github", "3 more questions from github"]);
    // Once it has been quiet for a window, questions show one by one again.
    vi.advanceTimersByTime(5_000);
    t.service.added(entry("c1", "c1", "github"));
    expect(t.shown.at(-1)?.body).toBe("c1");
  });

  it("paused: nothing is shown, and nothing is shown later either", () => {
    const t = setup({ paused: true });
    for (let i = 1; i <= 5; i++) t.service.added(entry(`q${i}`, `q${i}`, "github"));
    vi.advanceTimersByTime(60_000);
    expect(t.shown).toHaveLength(0);
    t.setPaused(false);
    t.service.added(entry("q6", "after resume", "github"));
    expect(t.shown.map((n) => n.body)).toEqual(["after resume"]);
  });

  it("pausing during a flood drops the pending summary", () => {
    const t = setup();
    for (let i = 1; i <= 5; i++) t.service.added(entry(`q${i}`, `q${i}`, "github"));
    t.setPaused(true);
    vi.advanceTimersByTime(5_000);
    expect(t.shown).toHaveLength(2);
  });

  it("a question that leaves the inbox takes its notification with it", () => {
    const t = setup();
    t.service.added(entry("q1", "q1", "github"));
    t.service.removed("q1");
    expect(t.shown[0].closed).toBe(true);
  });

  it("clear() closes everything and drops what was held", () => {
    const t = setup();
    for (let i = 1; i <= 4; i++) t.service.added(entry(`q${i}`, `q${i}`, "github"));
    t.service.clear();
    vi.advanceTimersByTime(10_000);
    expect(t.shown).toHaveLength(2);
    expect(t.shown.every((n) => n.closed)).toBe(true);
  });

  it("agents without a server are grouped by agent", () => {
    const t = setup();
    for (let i = 1; i <= 3; i++) t.service.added(entry(`q${i}`, `q${i}`, undefined, "builder"));
    vi.advanceTimersByTime(5_000);
    expect(t.shown.map((n) => n.title)).toEqual(["builder asks", "builder asks", "builder asks"]);
  });
});
