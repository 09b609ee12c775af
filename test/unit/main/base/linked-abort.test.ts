// A released LinkedAbort hands its controller to the next one only when its signal was never
// aborted and nobody listens to it: a cancel can never reach another question's or call's reader.
import { describe, expect, it } from "vitest";
import { LinkedAbort } from "../../../../src/main/base/linked-abort";

describe("LinkedAbort.release", () => {
  it("reuses a clean controller", () => {
    const first = new LinkedAbort([new AbortController().signal]);
    const controller = first.controller;
    first.release();
    const next = new LinkedAbort([]);
    expect(next.controller).toBe(controller);
    expect(next.signal.aborted).toBe(false);
    next.release();
  });

  it("never reuses an aborted one, nor one still listened to", () => {
    const aborted = new LinkedAbort([]);
    aborted.abort(new Error("gone"));
    aborted.release();
    const listened = new LinkedAbort([]);
    const onAbort = () => {};
    listened.signal.addEventListener("abort", onAbort);
    listened.release();
    const next = new LinkedAbort([]);
    expect(next.controller).not.toBe(aborted.controller);
    expect(next.controller).not.toBe(listened.controller);
    expect(next.signal.aborted).toBe(false);
    listened.signal.removeEventListener("abort", onAbort);
  });

  it("a reused controller follows only its new sources", () => {
    const oldSource = new AbortController();
    const first = new LinkedAbort([oldSource.signal]);
    first.release();
    const newSource = new AbortController();
    const next = new LinkedAbort([newSource.signal]);
    expect(next.controller).toBe(first.controller);
    oldSource.abort(new Error("old"));
    expect(next.signal.aborted).toBe(false);
    newSource.abort(new Error("new"));
    expect(next.signal.aborted).toBe(true);
    expect((next.signal.reason as Error).message).toBe("new");
  });
});
