import { beforeEach, describe, expect, it, vi } from "vitest";
import { EVENT_CHANNELS, INVOKE_CHANNELS, type CompanionApi } from "../../../src/shared/contract";

// The preload runs in Electron's sandbox; here `electron` is a recording fake.
const exposed = new Map<string, unknown>();
const ipcListeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
const invoke = vi.fn(async (channel: string, arg: unknown): Promise<unknown> => ({ ok: true, value: { channel, arg } }));

vi.mock("electron", () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => exposed.set(key, api) },
  ipcRenderer: {
    invoke: (channel: string, ...args: unknown[]) => invoke(channel, args[0]),
    on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
      if (!ipcListeners.has(channel)) ipcListeners.set(channel, new Set());
      ipcListeners.get(channel)!.add(listener);
    },
    removeListener: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
      ipcListeners.get(channel)?.delete(listener);
    },
    send: () => {
      throw new Error("the preload must not use ipcRenderer.send");
    },
  },
}));

function emit(channel: string, payload: unknown) {
  const event = { sender: "ipcRenderer itself", senderId: 0 };
  for (const listener of ipcListeners.get(channel) ?? []) listener(event, payload);
}

let api: CompanionApi;
beforeEach(async () => {
  await import("../../../src/preload/index");
  api = exposed.get("companion") as CompanionApi;
});

describe("preload", () => {
  it("exposes exactly one function per invoke channel plus on(), and nothing named ipc", () => {
    expect([...exposed.keys()]).toEqual(["companion"]);
    expect(Object.keys(api).sort()).toEqual([...INVOKE_CHANNELS, "on"].sort());
    for (const key of Object.keys(api)) expect(typeof (api as unknown as Record<string, unknown>)[key]).toBe("function");
    expect(Object.isFrozen(api)).toBe(true);
    expect(typeof api["forms:check"]).toBe("function");
    expect(typeof api["tools:check"]).toBe("function");
  });

  it("invokes each operation on its own channel with its one argument", async () => {
    invoke.mockClear();
    for (const channel of INVOKE_CHANNELS) {
      const result = await (api[channel] as (arg: unknown) => Promise<unknown>)({ probe: channel });
      expect(result).toEqual({ ok: true, value: { channel, arg: { probe: channel } } });
    }
    expect(invoke.mock.calls.map((c) => c[0])).toEqual([...INVOKE_CHANNELS]);
  });

  it("turns an IPC failure into an envelope instead of a rejection", async () => {
    invoke.mockRejectedValueOnce(new Error("No handler registered for 'inbox:list'"));
    expect(await api["inbox:list"]()).toEqual({ ok: false, error: { code: "ipc", message: "No handler registered for 'inbox:list'" } });
  });

  it("subscribes to known events only, hands over the payload alone, and unsubscribes", () => {
    const seen: unknown[] = [];
    const off = api.on("inbox:focus", (payload) => seen.push(payload));
    emit("inbox:focus", { id: "elc-1" });
    expect(seen).toEqual([{ id: "elc-1" }]);
    off();
    off();
    emit("inbox:focus", { id: "elc-2" });
    expect(seen).toEqual([{ id: "elc-1" }]);
    expect(ipcListeners.get("inbox:focus")?.size).toBe(0);
  });

  it("accepts every contract event channel", () => {
    for (const channel of EVENT_CHANNELS) api.on(channel, () => {})();
  });

  it.each(["ELECTRON_BROWSER_WINDOW_ALERT", "inbox:answer", "", "__proto__", "servers:changed "])("refuses to subscribe to %j", (channel) => {
    expect(() => api.on(channel as never, () => {})).toThrow(/unknown event channel/);
    expect(ipcListeners.has(channel)).toBe(false);
  });

  it("refuses a listener that is not a function", () => {
    expect(() => api.on("inbox:event", "alert(1)" as never)).toThrow(/listener/);
  });
});
