// A scripted person: sits on a real Inbox and answers each question with the next policy.
import { Inbox, inboxWaitFor } from "../../src/main/inbox";
import type { WaitFor } from "../../src/main/inbox/wait-for";
import type { Answer, PendingEntry } from "../../src/shared/types";

export type Policy = (entry: PendingEntry) => Omit<Answer, "id"> | undefined;

export interface ScriptedPerson {
  inbox: Inbox;
  waitFor: WaitFor;
  /** Every question that arrived, in order. */
  seen: PendingEntry[];
  /** Resolves with the next question that arrives (or the one already waiting). */
  nextQuestion(): Promise<PendingEntry>;
}

/** `policy` answers at once; returning undefined leaves the question pending for the test. */
export function scriptedPerson(policy: Policy = () => undefined, inbox = new Inbox()): ScriptedPerson {
  const seen: PendingEntry[] = [];
  const waiting: ((e: PendingEntry) => void)[] = [];
  let unclaimed: PendingEntry[] = [];
  inbox.on((event) => {
    if (event.type !== "added") return;
    seen.push(event.entry);
    const resolve = waiting.shift();
    if (resolve) resolve(event.entry);
    else unclaimed.push(event.entry);
    const answer = policy(event.entry);
    if (answer) queueMicrotask(() => inbox.answer(event.entry.request.id, answer));
  });
  return {
    inbox,
    seen,
    waitFor: inboxWaitFor(inbox),
    nextQuestion: () => {
      const first = unclaimed[0];
      if (first) {
        unclaimed = unclaimed.slice(1);
        return Promise.resolve(first);
      }
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}
