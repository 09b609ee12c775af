// The page's one way to main: every request resolves to an Envelope, whatever the transport does,
// so no store or view needs a second failure path.
import { describe, expect, it, vi } from "vitest";
import { caller, refusal } from "../../src/renderer/lib/api";
import type { CompanionApi } from "../../src/shared/contract";
import { fakeApi, ok } from "./fake-api";

describe("call", () => {
  it("passes the argument through (none for a void channel) and returns main's envelope as it is", async () => {
    const api = fakeApi({ "servers:entry": async ({ name }) => ({ ok: false, error: { code: "unknown-server", message: `No server "${name}".` } }) });
    const call = caller(api);
    expect(await call("inbox:list")).toEqual(ok([]));
    expect(api.fn("inbox:list")).toHaveBeenCalledWith();
    const refused = await call("servers:entry", { name: "gone" });
    expect(refused).toEqual({ ok: false, error: { code: "unknown-server", message: 'No server "gone".' } });
    expect(refusal(refused)).toBe('No server "gone".');
    expect(refusal(ok(1))).toBe("");
  });

  it("turns a throw or a channel the transport lacks into a refusal, never a rejection", async () => {
    const throwing = { "tools:run": vi.fn(async () => Promise.reject(new Error("socket gone"))) } as unknown as CompanionApi;
    expect(await caller(throwing)("tools:run", { tool: "x", args: {} })).toEqual({ ok: false, error: { code: "failed", message: "socket gone" } });
    const result = await caller({} as CompanionApi)("history:list", {});
    expect(result.ok).toBe(false);
  });
});
