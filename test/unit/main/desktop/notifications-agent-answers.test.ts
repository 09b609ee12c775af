// Gateway "who answers: the agent": the companion lists the question (the person may step in) but
// sends no system notification for it; a question nobody is answering still gets one.
import { describe, expect, it } from "vitest";
import type { PendingEntry } from "../../../../src/shared/types";
import { NotificationService, type NotificationContent } from "../../../../src/main/desktop/notifications";

function entry(id: string, answering?: string): PendingEntry {
  return { request: { id, kind: "input", prompt: `Question ${id}` }, source: { server: "github", agent: "cursor" }, receivedAt: Date.now(), ...(answering ? { answering } : {}) };
}

describe("NotificationService: questions an agent answers itself", () => {
  it("notifies for a question the person must answer, not for one the agent is answering", () => {
    const shown: NotificationContent[] = [];
    const service = new NotificationService({
      create: (content) => ({ on: () => {}, show: () => void shown.push(content), close: () => {} }),
      isPaused: () => false,
      openQuestion: () => {},
      openWindow: () => {},
    });
    service.added(entry("a", "cursor"));
    expect(shown).toEqual([]);
    service.added(entry("b"));
    expect(shown.map((n) => n.body ?? n.title).join(" ")).toContain("Question b");
  });
});
