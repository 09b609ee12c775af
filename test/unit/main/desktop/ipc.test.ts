import { describe, expect, it, vi } from "vitest";
import { EVENT_CHANNELS, INVOKE_CHANNELS, type EventChannel, type EventMap } from "../../../../src/shared/contract";
import { ArgumentError } from "../../../../src/main/rpc/envelope";
import { InboxError } from "../../../../src/main/inbox/errors";
import { APP_URL } from "../../../../src/main/desktop/app-url";
import { forwardEvents, handle, isInvokeChannel, registerHandlers, senderInfo, type InvokeListener } from "../../../../src/main/desktop/ipc";
import type { DesktopHandlers } from "../../../../src/main/desktop/types";

/** An invoke event as Electron builds it: the sending WebContents and its frame. */
function event(opts: { id?: number; url?: string | null; iframe?: boolean; frameThrows?: boolean } = {}) {
  const top = { url: APP_URL, parent: null };
  let frame: unknown = null;
  if (opts.frameThrows) {
    frame = {
      get url(): string {
        throw new Error("Render frame was disposed before WebFrameMain could be accessed");
      },
      parent: null,
    };
  } else if (opts.url !== null) {
    frame = { url: opts.url ?? APP_URL, parent: opts.iframe ? top : null };
  }
  return { sender: { id: opts.id ?? 1 }, senderFrame: frame } as unknown as Parameters<InvokeListener>[0];
}

function fakeIpcMain() {
  const handlers = new Map<string, InvokeListener>();
  return {
    handlers,
    handle: vi.fn((channel: string, listener: InvokeListener) => {
      if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      handlers.set(channel, listener);
    }),
    removeHandler: vi.fn((channel: string) => handlers.delete(channel)),
  };
}

function fakeHandlers(overrides: Partial<Record<string, (arg: unknown) => Promise<unknown>>> = {}): DesktopHandlers {
  const all: Record<string, (arg: unknown) => Promise<unknown>> = {};
  for (const channel of INVOKE_CHANNELS) all[channel] = overrides[channel] ?? (async (arg) => ({ channel, arg }));
  return all as unknown as DesktopHandlers;
}

const options = { ourWebContentsId: () => 1, appUrl: APP_URL };

describe("registerHandlers", () => {
  it("registers every contract channel exactly once, and unregisters them", () => {
    const ipc = fakeIpcMain();
    const undo = registerHandlers(ipc as never, fakeHandlers(), options);
    expect([...ipc.handlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort());
    expect(ipc.handle).toHaveBeenCalledTimes(INVOKE_CHANNELS.length);
    // The page's inline validation is main's: both check channels go through the same guard.
    expect(ipc.handlers.has("forms:check")).toBe(true);
    expect(ipc.handlers.has("tools:check")).toBe(true);
    undo();
    expect(ipc.handlers.size).toBe(0);
  });

  it("refuses a handler map that misses a channel", () => {
    const handlers = fakeHandlers() as unknown as Record<string, unknown>;
    delete handlers["tools:run"];
    expect(() => registerHandlers(fakeIpcMain() as never, handlers as never, options)).toThrow(/tools:run/);
  });

  it("serves our frame and wraps the value in an envelope", async () => {
    const ipc = fakeIpcMain();
    registerHandlers(ipc as never, fakeHandlers(), options);
    const result = await ipc.handlers.get("inbox:answer")!(event(), { id: "elc-1", ok: true, data: { a: 1 } });
    expect(result).toEqual({ ok: true, value: { channel: "inbox:answer", arg: { id: "elc-1", ok: true, data: { a: 1 } } } });
  });

  it("refuses a foreign WebContents without calling the handler", async () => {
    const ipc = fakeIpcMain();
    const run = vi.fn(async () => "ran");
    const log = vi.fn();
    registerHandlers(ipc as never, fakeHandlers({ "url:open": run }), { ...options, log });
    const result = await ipc.handlers.get("url:open")!(event({ id: 2 }), { id: "elc-1" });
    expect(result).toEqual({ ok: false, error: { code: "forbidden", message: expect.any(String) } });
    expect(run).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith(expect.stringContaining("refused url:open"));
  });

  it.each([
    ["an iframe on our page", { iframe: true }],
    ["a frame on another page", { url: "https://evil.example/" }],
    ["a frame that is gone", { url: null }],
    ["a disposed frame", { frameThrows: true }],
  ])("refuses %s", async (_name, opts) => {
    const ipc = fakeIpcMain();
    const run = vi.fn(async () => "ran");
    registerHandlers(ipc as never, fakeHandlers({ "inbox:answer": run }), options);
    const result = await ipc.handlers.get("inbox:answer")!(event(opts), { id: "x", ok: false });
    expect(result).toMatchObject({ ok: false, error: { code: "forbidden" } });
    expect(run).not.toHaveBeenCalled();
  });

  it("refuses everyone while our window does not exist", async () => {
    const ipc = fakeIpcMain();
    registerHandlers(ipc as never, fakeHandlers(), { ...options, ourWebContentsId: () => undefined });
    expect(await ipc.handlers.get("inbox:list")!(event(), undefined)).toMatchObject({ ok: false, error: { code: "forbidden" } });
  });

  it("turns an InboxError into its code, message and details", async () => {
    const ipc = fakeIpcMain();
    registerHandlers(
      ipc as never,
      fakeHandlers({
        "inbox:answer": async () => {
          throw new InboxError("invalid-answer", "the answer does not fit the form", ["email: must match format \"email\""]);
        },
      }),
      options,
    );
    expect(await ipc.handlers.get("inbox:answer")!(event(), { id: "x", ok: true })).toEqual({
      ok: false,
      error: { code: "invalid-answer", message: "the answer does not fit the form", details: ['email: must match format "email"'] },
    });
  });

  it("turns a validation throw and an unexpected throw into envelopes, never a rejection", async () => {
    const ipc = fakeIpcMain();
    registerHandlers(
      ipc as never,
      fakeHandlers({
        "tools:run": async () => {
          throw new ArgumentError("tools:run: tool must be a string");
        },
        "servers:list": async () => {
          throw new TypeError("boom");
        },
      }),
      options,
    );
    expect(await ipc.handlers.get("tools:run")!(event(), { tool: 1 })).toEqual({
      ok: false,
      error: { code: "invalid-argument", message: "tools:run: tool must be a string" },
    });
    expect(await ipc.handlers.get("servers:list")!(event(), undefined)).toMatchObject({ ok: false, error: { message: "boom" } });
  });
});

describe("handle", () => {
  it("refuses a channel outside the contract", () => {
    expect(() => handle(fakeIpcMain() as never, "shell:exec" as never, async () => 1, options)).toThrow(/unknown invoke channel/);
    expect(isInvokeChannel("inbox:list")).toBe(true);
    expect(isInvokeChannel("__proto__")).toBe(false);
    expect(isInvokeChannel(42)).toBe(false);
  });
});

describe("senderInfo", () => {
  it("reads the sender's id, frame url and whether it is the top frame", () => {
    expect(senderInfo(event({ id: 3 }))).toEqual({ webContentsId: 3, frameUrl: APP_URL, isMainFrame: true });
    expect(senderInfo(event({ iframe: true }))).toMatchObject({ isMainFrame: false });
    expect(senderInfo(event({ url: null }))).toMatchObject({ frameUrl: null, isMainFrame: false });
  });
});

describe("forwardEvents", () => {
  it("forwards every contract event to the page and stops on undo", () => {
    const listeners = new Map<string, (payload: unknown) => void>();
    const events = {
      on: <E extends EventChannel>(channel: E, listener: (payload: EventMap[E]) => void) => {
        listeners.set(channel, listener as (payload: unknown) => void);
        return () => listeners.delete(channel);
      },
    };
    const sent: Array<[string, unknown]> = [];
    const undo = forwardEvents(events, (channel, payload) => sent.push([channel, payload]));
    expect([...listeners.keys()].sort()).toEqual([...EVENT_CHANNELS].sort());
    listeners.get("inbox:focus")!({ id: "elc-9" });
    listeners.get("servers:changed")!([]);
    expect(sent).toEqual([
      ["inbox:focus", { id: "elc-9" }],
      ["servers:changed", []],
    ]);
    undo();
    expect(listeners.size).toBe(0);
  });
});
