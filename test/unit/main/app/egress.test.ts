// The egress is the one place that scrubs what leaves the process. A secret is registered, then
// every kind of outbound value is made to carry it: none may still hold it, and each must show it
// was redacted. The table is keyed by every member of Egress, so a kind added without a check
// here does not compile. Then the gateway's tool server is driven by an agent: its tools list,
// results, failures, errors and notifications all pass the outbound it is given. Last, the core:
// what it gives its users (pending questions, events, handlers) comes through its egress.
import { describe, expect, it, vi } from "vitest";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { ProtocolError } from "@modelcontextprotocol/server";
import { createEgress, type Egress } from "../../../../src/main/app/egress";
import { createCore } from "../../../../src/main/app/core";
import { browserPlatform } from "../../../../src/main/app/serve";
import type { Handlers } from "../../../../src/main/api/handlers";
import { Catalog } from "../../../../src/main/gateway/catalog";
import { createToolServer } from "../../../../src/main/gateway/tool-server";
import type { McpBackend } from "../../../../src/main/mcp/types";
import { ArgumentError, errorEnvelope, HandlerError, toEnvelope } from "../../../../src/main/rpc/envelope";
import { REDACTED, SecretScrubber } from "../../../../src/main/secrets";
import { INVOKE_CHANNELS, type Settings } from "../../../../src/shared/contract";
import type { PendingEntry } from "../../../../src/shared/types";
import { standInSource } from "../../../helpers/stand-in-source";

const SECRET = "egress-secret-4f3e2d1c0b";

function setup(): { scrubber: SecretScrubber; egress: Egress } {
  const scrubber = new SecretScrubber();
  scrubber.register(SECRET);
  return { scrubber, egress: createEgress(scrubber) };
}

function expectScrubbed(value: unknown): void {
  const text = JSON.stringify(value);
  expect(text).not.toContain(SECRET);
  expect(text).toContain(REDACTED);
}

const entry = (prompt: string): PendingEntry => ({ request: { id: "q1", kind: "input", prompt } as PendingEntry["request"], source: { server: "s" }, receivedAt: 1 });
const settings = (detail: string): Settings => ({ notificationsPaused: false, startAtLogin: false, gateway: { url: "", tokenSet: true }, keychain: { available: false, detail }, secretNames: [] });

/** Every channel answering (or failing) with the secret in it. */
function handlerMap(run: (channel: string) => Promise<unknown>): Handlers {
  return Object.fromEntries(INVOKE_CHANNELS.map((channel) => [channel, () => run(channel)])) as unknown as Handlers;
}

/** One check per kind of outbound value; keyed by every member of Egress. */
const kinds: { [K in keyof Egress]: (egress: Egress, scrubber: SecretScrubber) => unknown } = {
  event: (e) => e.event<"inbox:event">({ type: "added", entry: entry(`Paste ${SECRET}`) }),
  handlers: async (e) => {
    const wrapped = e.handlers(handlerMap(async () => ({ echoed: SECRET })));
    const channels = INVOKE_CHANNELS.filter((c) => c !== "gateway:rotateToken");
    return Promise.all(channels.map((c) => (wrapped[c] as (arg: unknown) => Promise<unknown>)(undefined)));
  },
  error: (e) => errorEnvelope(e.error(new HandlerError("invalid-answer", `server said ${SECRET}`, [`name: ${SECRET}`]))),
  pending: (e) => e.pending([entry(`Paste ${SECRET}`)]),
  settings: (e) => e.settings(settings(`keychain said ${SECRET}`)),
  status: (e) => e.status({ name: "s", state: "failed", error: `HTTP 403: authorization: Bearer ${SECRET}`, toolCount: 0 }),
  views: (e) => e.views.scrub({ name: "s", state: "failed", error: SECRET, toolCount: 0, tools: [] }),
  agents: (e) => [e.agents.relay({ content: [{ type: "text", text: SECRET }], structuredContent: { [SECRET]: SECRET } }), e.agents.text(`refused ${SECRET}`)],
  stored: (e) => e.stored({ prompt: SECRET, answer: { data: { token: SECRET } } }),
  shown: (e) => e.shown(`https://api.example.com/mcp?key=${SECRET}`),
  away: (e) => e.away(`github asks: paste ${SECRET}`),
  log: (e) => {
    const lines: string[] = [];
    e.log((line) => lines.push(line))(`server s failed: ${SECRET}`);
    return lines;
  },
};

describe("every kind of outbound value leaves scrubbed", () => {
  it.each(Object.entries(kinds))("%s", async (_kind, make) => {
    const { scrubber, egress } = setup();
    expectScrubbed(await make(egress, scrubber));
  });
});

describe("handlers and their failures", () => {
  it("every channel's failure is scrubbed, the rotated token's too; only that result passes as it is", async () => {
    const { egress } = setup();
    const failing = egress.handlers(handlerMap(async () => {
      throw new HandlerError("failed", `upstream refused ${SECRET}`, [`field: ${SECRET}`]);
    }));
    for (const channel of INVOKE_CHANNELS) {
      const envelope = await toEnvelope(() => (failing[channel] as (arg: unknown) => Promise<unknown>)(undefined));
      expect(envelope).toMatchObject({ ok: false, error: { code: "failed" } });
      expectScrubbed(envelope);
    }
    const rotated = egress.handlers(handlerMap(async () => ({ token: SECRET })));
    expect(await rotated["gateway:rotateToken"](undefined)).toEqual({ token: SECRET });
  });

  it("an error is scrubbed once, by the egress; the envelope only describes it", async () => {
    const { scrubber, egress } = setup();
    const scrub = vi.spyOn(scrubber, "scrub");
    const failing = egress.handlers(handlerMap(async () => {
      throw new Error(`boom ${SECRET}`);
    }));
    const envelope = await toEnvelope(() => failing["inbox:list"](undefined));
    expect(envelope).toEqual({ ok: false, error: { code: "failed", message: `boom ${REDACTED}` } });
    expect(scrub.mock.calls.filter(([text]) => text.includes("boom"))).toHaveLength(1);
    // Nothing in rpc/ scrubs: what the envelope is given is what it says.
    expect(errorEnvelope(new Error(`raw ${SECRET}`))).toEqual({ ok: false, error: { code: "failed", message: `raw ${SECRET}` } });
  });

  it("keeps an error's class and code; a frozen one gives way to a scrubbed copy; a thrown text is scrubbed", () => {
    const { egress } = setup();
    const argument = new ArgumentError(`bad ${SECRET}`);
    expect(egress.error(argument)).toBe(argument);
    expect(argument.message).toBe(`bad ${REDACTED}`);
    const frozen = Object.freeze(new HandlerError("unknown-id", `gone ${SECRET}`, [`x ${SECRET}`]));
    const copy = egress.error(frozen);
    expect(copy).toBeInstanceOf(HandlerError);
    expect(errorEnvelope(copy)).toEqual({ ok: false, error: { code: "unknown-id", message: `gone ${REDACTED}`, details: [`x ${REDACTED}`] } });
    expect(egress.error(`plain ${SECRET}`)).toBe(`plain ${REDACTED}`);
    const clean = new Error("nothing secret here");
    expect(egress.error(clean)).toBe(clean);
  });

  it("a newly registered secret changes the views' generation, so kept views are scrubbed again", () => {
    const { scrubber, egress } = setup();
    const before = egress.views.scrubGeneration();
    scrubber.register("another-secret-value-99");
    expect(egress.views.scrubGeneration()).not.toBe(before);
  });
});

describe("the gateway's tool server sends agents only what passed the outbound", () => {
  function backend(): McpBackend {
    return {
      name: "s",
      capabilities: () => ({ prompts: {}, logging: {} }),
      offers: () => true,
      async forward(method) {
        if (method === "prompts/list") return { prompts: [{ name: "p", description: `uses ${SECRET}` }] };
        if (method === "prompts/get") throw new ProtocolError(-32000, `prompt refused ${SECRET}`, { echoed: SECRET });
        return {};
      },
    };
  }

  async function connect() {
    const { egress } = setup();
    const source = standInSource([
      {
        name: "s_echo",
        server: "s",
        tool: "echo",
        description: `Sends with ${SECRET}`,
        async execute(_args, ctx) {
          ctx?.onprogress?.({ progress: 1, message: `sent ${SECRET}` });
          return { content: [{ type: "text", text: `echo ${SECRET}` }], isError: false };
        },
      },
      {
        name: "s_raw",
        server: "s",
        tool: "raw",
        execute: async () => ({ content: [{ type: "text", text: `403 ${SECRET}` }], isError: true }),
      },
      {
        name: "s_fail",
        server: "s",
        tool: "fail",
        execute: async () => {
          throw new Error(`connection said ${SECRET}`);
        },
      },
    ]);
    const lines: string[] = [];
    const tools = createToolServer({ source, catalog: new Catalog(() => [backend()], () => {}), version: "1", log: (line) => lines.push(line), outbound: egress.agents });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await tools.server.connect(serverSide);
    const agent = new Client({ name: "agent", version: "1" }, { capabilities: {} });
    await agent.connect(clientSide);
    return { agent, tools, lines };
  }

  it("tools list, results, failures, progress, unknown tools, prompts and their errors, server notifications", async () => {
    const { agent, tools, lines } = await connect();
    try {
      expectScrubbed(await agent.listTools());
      const progress: unknown[] = [];
      expectScrubbed(await agent.callTool({ name: "s_echo", arguments: {} }, { onprogress: (p) => void progress.push(p) }));
      expectScrubbed(progress);
      expectScrubbed(await agent.callTool({ name: "s_raw", arguments: {} }));
      expectScrubbed(await agent.callTool({ name: "s_fail", arguments: {} }));
      expectScrubbed(lines);
      expectScrubbed(await agent.listPrompts());
      const refused = await agent.getPrompt({ name: "s_p" }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(Error);
      expectScrubbed({ message: (refused as Error).message, data: (refused as { data?: unknown }).data });

      // The short path (direct-call.ts) calls the tool server itself: the same outbound.
      const notified: unknown[] = [];
      const direct = await tools.call({ name: "s_echo", arguments: {}, _meta: { progressToken: 7 } }, 99, { notify: async (n) => void notified.push(n) });
      expectScrubbed([direct, notified]);
      const unknown = await tools.call({ name: `nope-${SECRET}` }, 100).catch((error: unknown) => error);
      expect(unknown).toBeInstanceOf(ProtocolError);
      expectScrubbed((unknown as Error).message);

      const messages: unknown[] = [];
      agent.setNotificationHandler("notifications/message", (n) => void messages.push(n.params));
      await agent.setLoggingLevel("debug");
      tools.deliver({ type: "notification", server: "s", method: "notifications/message", params: { level: "error", data: `server log ${SECRET}` } });
      await vi.waitFor(() => expect(messages).toHaveLength(1));
      expectScrubbed(messages);
    } finally {
      await agent.close();
    }
  });
});

describe("the core gives its users only what passed its egress", () => {
  it("pending questions, their events and the inbox:list handler hide a secret the core knows (its gateway token)", async () => {
    const core = await createCore({ config: { mcpServers: {} }, platform: browserPlatform });
    try {
      const token = core.token();
      const events: unknown[] = [];
      core.events.on("inbox:event", (event) => events.push(event));
      void core.internals.inbox.waitFor({ id: "q-token", kind: "input", prompt: `Paste ${token} here` }, { source: { server: "s" } }).catch(() => {});
      for (const read of [core.pending(), events, await core.handlers["inbox:list"](undefined)]) {
        const text = JSON.stringify(read);
        expect(text).toContain("q-token");
        expect(text).not.toContain(token);
        expect(text).toContain(REDACTED);
      }
    } finally {
      await core.close();
    }
  });
});

