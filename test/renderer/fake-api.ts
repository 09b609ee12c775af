// A stand-in CompanionApi for component tests: every channel is a vi.fn resolving to an ok
// envelope, and `emit` plays main's events. These are component tests, not integration tests.
// forms:check and tools:check run the real checkFormAnswer main runs (fine in a component test:
// jsdom has no CSP), on the schema of the question or tool the fake knows by that id or name.
import type { ReachView } from "../../src/shared/reach";
import { vi } from "vitest";
import type { CompanionApi, Envelope, EventChannel, EventMap, FormCheck, InvokeChannel, Settings } from "../../src/shared/contract";
import type { ServerView } from "../../src/shared/types";
import type { DevicesState } from "../../src/shared/devices";
import type { PendingEntry, ToolInfo } from "../../src/shared/types";
import { checkFormAnswer } from "../../src/forms/check-answer";
import { caller, type Call } from "../../src/renderer/lib/api";

export const settings: Settings = {
  notificationsPaused: false,
  startAtLogin: false,
  gateway: { url: "http://127.0.0.1:7315/mcp", tokenSet: true },
  keychain: { available: true, detail: "Secret Service" },
  secretNames: ["GITHUB_TOKEN"],
};

export const devicesOff: DevicesState = {
  setting: { enabled: false, port: 7316, certificate: { kind: "own" } },
  addresses: [{ address: "192.168.1.20", interface: "wlan0", family: "IPv4", tailnet: false }],
  devices: [],
  asking: [],
};

export type FakeApi = CompanionApi & {
  emit<E extends EventChannel>(event: E, payload: EventMap[E]): void;
  fn(channel: InvokeChannel): ReturnType<typeof vi.fn>;
};

export function ok<T>(value: T): Envelope<T> {
  return { ok: true, value };
}

/** main's verdict as forms:check / tools:check return it: no prepared data. */
export function verdict(schema: unknown, data: Record<string, unknown> | undefined): FormCheck {
  const { ok: valid, errors, fieldErrors } = checkFormAnswer(schema, data);
  return { ok: valid, errors, fieldErrors };
}

/** A forms:check for one question, as QuestionForm's `check` prop. */
export function checkFor(schema: unknown) {
  return vi.fn(async ({ data }: { id: string; data: Record<string, unknown> }): Promise<Envelope<FormCheck>> => ok(verdict(schema, data)));
}

/** A servers-list entry as tests write it: each tool with its schema, which tools:get hands out. */
export type FakeServerView = Omit<ServerView, "tools"> & { tools: ToolInfo[] };

/** Settings → When you are away, as a fresh companion shows it. */
export const fakeReachView: ReachView = {
  detail: "full",
  escalation: { devicesAfter: 2, approvalDevicesAfter: 1, channelsAfter: 3 },
  holdAtDesk: true,
  ntfy: { enabled: false, url: "", tokenSet: false },
  slack: { enabled: false, urlSet: false },
  discord: { enabled: false, urlSet: false },
  matrix: { enabled: false, homeserver: "", roomId: "", tokenSet: false },
  email: { enabled: false, host: "", port: 587, secure: false, user: "", from: "", to: "", passwordSet: false },
  devices: { paired: 0, push: 0 },
  secretsKept: "keychain",
};

export function fakeApi(overrides: Partial<Record<InvokeChannel, (arg: any) => Promise<Envelope<any>>>> = {}): FakeApi {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  // Questions the page was told about, so forms:check can find a question's schema by id.
  const announced = new Map<string, PendingEntry>();
  const impl = <C extends InvokeChannel>(channel: C) => overrides[channel] ?? defaults[channel];
  const defaults: Record<InvokeChannel, (arg: any) => Promise<Envelope<any>>> = {
    "inbox:list": async () => ok([]),
    "devices:get": async () => ok(devicesOff),
    "devices:configure": async (setting) => ok({ ...devicesOff, setting }),
    "devices:startPairing": async () => ok(devicesOff),
    "devices:confirm": async () => ok(devicesOff),
    "devices:revoke": async () => ok(devicesOff),
    "history:list": async () => ok({ items: [], hasMore: false }),
    "history:clear": async () => ok({ removed: 0 }),
    "agents:list": async () => ok([]),
    "agents:plan": async ({ agent, connect }) => ok({ agent, label: agent, connect, via: "shim", hooks: false, files: [], notes: [], fingerprint: "fp" }),
    "agents:apply": async ({ agent }) => ok({ agent, written: [], notes: [], agents: [] }),
    "tasks:list": async () => ok({ tasks: [] }),
    "tasks:cancel": async () => ok({ tasks: [] }),
    "agents:longWaits": async () => ok([]),
    "rules:list": async () => ok([]),
    "rules:add": async () => ok({ error: "not in the fake" }),
    "rules:remove": async () => ok({ removed: false }),
    "rules:offer": async () => ok({ allowed: false, reason: "not in the fake", actions: [], scopes: [] }),
    "servers:restart": async () => ok([]),
    "servers:setEnabled": async () => ok([]),
    "servers:remove": async () => ok([]),
    "servers:tryDemo": async () => ok([]),
    "servers:importPlan": async () => ok({ configPath: "/home/u/.config/toolnexus-companion/mcp.json", groups: [], fingerprint: "fp" }),
    "servers:import": async () => ok({ configPath: "/home/u/.config/toolnexus-companion/mcp.json", added: [], servers: [] }),
    "servers:signIn": async () => ok([]),
    "servers:signOut": async () => ok([]),
    "servers:entry": async ({ name }) => ok({ name, kind: "local", command: "", args: [], env: [], cwd: "", url: "", headers: [] }),
    "servers:save": async () => ok({ saved: true, fieldErrors: {}, storedSecrets: [], servers: [] }),
    "servers:stopDemo": async () => ok([]),
    "app:firstRun": async () => ok({ firstRun: false, configPath: "/home/u/.config/toolnexus-companion/mcp.json" }),
    "history:settings": async () => ok({ enabled: true, days: 90, status: { ok: true } }),
    "inbox:answer": async (a) => ok(a),
    "servers:list": async () => ok([]),
    "tools:run": async () => ok({ output: "done", isError: false }),
    "forms:check": async ({ id, data }) => {
      const listed = await impl("inbox:list")(undefined);
      const entry = announced.get(id) ?? (listed.ok ? (listed.value as PendingEntry[]) : []).find((e) => e.request.id === id);
      if (!entry) return { ok: false, error: { code: "unknown-id", message: `No pending question has id "${id}".` } };
      return ok(verdict(entry.request.data?.schema, data));
    },
    "tools:check": async ({ tool, args }) => {
      const listed = await impl("servers:list")(undefined);
      const found = (listed.ok ? (listed.value as ServerView[]) : []).flatMap((s) => s.tools).find((t) => t.name === tool);
      if (!found) return { ok: false, error: { code: "unknown-tool", message: `No tool named "${tool}".` } };
      return ok(verdict((found as ToolInfo).inputSchema, args));
    },
    // Main's tools:get: the tool whole, from the fake servers list (whose tools carry their schema).
    "tools:get": async ({ tool }) => {
      const listed = await impl("servers:list")(undefined);
      const found = (listed.ok ? (listed.value as ServerView[]) : []).flatMap((s) => s.tools).find((t) => t.name === tool);
      if (!found) return { ok: false, error: { code: "unknown-tool", message: `No tool named "${tool}".` } };
      return ok({ inputSchema: { type: "object" }, ...found });
    },
    "url:open": async ({ id }) => ok({ opened: false, url: `https://example.com/${id}` }),
    "settings:get": async () => ok(settings),
    "settings:pauseNotifications": async () => ok({ ...settings, notificationsPaused: true }),
    "settings:resumeNotifications": async () => ok(settings),
    "settings:startAtLogin": async ({ enabled }) => ok({ ...settings, startAtLogin: enabled }),
    "gateway:rotateToken": async () => ok({ token: "tok-new" }),
    "reach:get": async () => ok(fakeReachView),
    "reach:save": async () => ok(fakeReachView),
    "reach:test": async ({ channel }) => ok({ ok: true, message: `${channel}: the test was sent.` }),
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
      const inboxEvent = payload as { type?: string; entry?: PendingEntry };
      if (event === "inbox:event" && inboxEvent.type === "added" && inboxEvent.entry) announced.set(inboxEvent.entry.request.id, inboxEvent.entry);
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

/** The page's one way to main (src/renderer/lib/api.ts) over a fake: what a view taking `call` gets. */
export function callOf(overrides: Parameters<typeof fakeApi>[0] = {}): Call {
  return caller(fakeApi(overrides));
}

type Reply = (arg: any) => Promise<Envelope<any>>;

/** History's three channels from one fake, as the History view's `call`. */
export function historyCall(fake: { list: Reply; clear: Reply; settings: Reply }): Call {
  return callOf({ "history:list": fake.list, "history:clear": fake.clear, "history:settings": fake.settings });
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
