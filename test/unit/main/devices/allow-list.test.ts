import { describe, expect, it } from "vitest";
import { INVOKE_CHANNELS, type HandlerMap, type InvokeMap } from "../../../../src/shared/contract";
import { DEVICE_CHANNELS, deviceHandlers } from "../../../../src/main/devices/allow-list";
import { HandlerError } from "../../../../src/main/rpc/envelope";

function everyHandler(calls: string[]): HandlerMap<InvokeMap> {
  const out: Record<string, (arg: unknown) => Promise<unknown>> = {};
  for (const channel of INVOKE_CHANNELS) {
    out[channel] = async (arg) => {
      calls.push(channel);
      if (channel === "inbox:list") return [{ request: { id: "u1", kind: "authorization", prompt: "", url: "https://auth.example/a" }, source: {}, receivedAt: 0 }];
      return arg;
    };
  }
  return out as HandlerMap<InvokeMap>;
}

describe("what a paired device may call", () => {
  it("forbids every channel but the allow-listed ones, without reaching them", async () => {
    const calls: string[] = [];
    const handlers = deviceHandlers(everyHandler(calls), { answering: (_id, run) => run() });
    for (const channel of INVOKE_CHANNELS) {
      if ((DEVICE_CHANNELS as readonly string[]).includes(channel)) continue;
      await expect(handlers[channel]({}), channel).rejects.toBeInstanceOf(HandlerError);
    }
    expect(calls).toEqual([]);
  });

  it("answers as the device, reads History's settings without changing them, and gives a URL question's link without opening it", async () => {
    const calls: string[] = [];
    const answering: string[] = [];
    const handlers = deviceHandlers(everyHandler(calls), { answering: (id, run) => (answering.push(id), run()) });
    await handlers["inbox:answer"]({ id: "q1", ok: true });
    expect(answering).toEqual(["q1"]);
    await expect(handlers["history:settings"]({})).resolves.toEqual({});
    await expect(handlers["history:settings"]({ enabled: false })).rejects.toMatchObject({ code: "forbidden" });
    await expect(handlers["url:open"]({ id: "u1" })).resolves.toEqual({ opened: false, url: "https://auth.example/a" });
    await expect(handlers["url:open"]({ id: "nope" })).rejects.toMatchObject({ code: "not-a-url-question" });
    expect(calls).not.toContain("url:open");
  });
});
