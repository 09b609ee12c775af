// A stand-in CompanionApi for component tests: every channel is a vi.fn resolving to an ok
// envelope, and `emit` plays main's events. These are component tests, not integration tests.
import { vi } from "vitest";
import type { CompanionApi, Envelope, EventChannel, EventMap, InvokeChannel, Settings } from "../../src/shared/contract";
import type { PendingEntry } from "../../src/shared/types";

export const settings: Settings = {
  notificationsPaused: false,
  startAtLogin: false,
  gateway: { url: "http://127.0.0.1:7315/mcp", tokenSet: true },
  keychain: { available: true, detail: "Secret Service" },
  secretNames: ["GITHUB_TOKEN"],
};

export type FakeApi = CompanionApi & {
  emit<E extends EventChannel>(event: E, payload: EventMap[E]): void;
  fn(channel: InvokeChannel): ReturnType<typeof vi.fn>;
};

export function ok<T>(value: T): Envelope<T> {
  return { ok: true, value };
}

export function fakeApi(overrides: Partial<Record<InvokeChannel, (arg: any) => Promise<Envelope<any>>>> = {}): FakeApi {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const defaults: Record<InvokeChannel, (arg: any) => Promise<Envelope<any>>> = {
    "inbox:list": async () => ok([]),
    "inbox:answer": async (a) => ok(a),
    "servers:list": async () => ok([]),
    "tools:run": async () => ok({ output: "done", isError: false }),
    "url:open": async ({ id }) => ok({ opened: false, url: `https://example.com/${id}` }),
    "settings:get": async () => ok(settings),
    "settings:pauseNotifications": async () => ok({ ...settings, notificationsPaused: true }),
    "settings:resumeNotifications": async () => ok(settings),
    "settings:startAtLogin": async ({ enabled }) => ok({ ...settings, startAtLogin: enabled }),
    "gateway:rotateToken": async () => ok({ token: "tok-new" }),
    "secrets:set": async ({ name }) => ok({ ...settings, secretNames: [...settings.secretNames, name] }),
    "secrets:delete": async () => ok({ ...settings, secretNames: [] }),
  };
  const api: Record<string, unknown> = {
    on(event: string, listener: (payload: unknown) => void) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      return () => set.delete(listener);
    },
    emit(event: string, payload: unknown) {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    },
    fn(channel: string) {
      return api[channel];
    },
  };
  for (const [channel, impl] of Object.entries(defaults)) {
    api[channel] = vi.fn(overrides[channel as InvokeChannel] ?? impl);
  }
  return api as unknown as FakeApi;
}

let counter = 0;
export function entry(request: Partial<PendingEntry["request"]> & { kind: string }, source = { server: "everything", agent: "claude-code" }): PendingEntry {
  counter += 1;
  return {
    request: { id: `elc-${counter}`, prompt: "Please answer", ...request },
    source,
    receivedAt: Date.now() - 1000,
  };
}

export function formEntry(schema: unknown, prompt = "Please provide inputs for the following fields:"): PendingEntry {
  return entry({ kind: "input", prompt, data: { schema } });
}
