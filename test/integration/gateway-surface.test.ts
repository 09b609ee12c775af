// The gateway's non-tool surface with two servers that offer the same resources: a clash listed
// visibly and each URI read from its own server, a subscription whose update reaches the
// subscribing agent only, prompts under <server>_<prompt>, and a server's sampling request that
// no agent can answer refused with a clear error instead of hanging or reaching the wrong agent.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Client } from "@modelcontextprotocol/client";
import { fixtureCommand } from "../fixtures";
import { becomesTrue } from "../helpers/poll";
import { connectAgent, startCompanion, type Companion } from "./gateway-harness";

let companion: Companion;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  companion = await startCompanion({
    config: { mcpServers: { test: fixtureCommand("conformance-server", ["test"]), other: fixtureCommand("conformance-server", ["test"]) } },
  });
  alice = await connectAgent(companion, "alice");
  bob = await connectAgent(companion, "bob");
}, 60_000);

afterAll(async () => {
  await alice?.close();
  await bob?.close();
  await companion?.close();
});

describe("gateway surface with two servers", () => {
  it("advertises the union of the servers' capabilities", () => {
    const caps = alice.getServerCapabilities();
    expect(caps?.resources).toMatchObject({ subscribe: true, listChanged: true });
    expect(caps?.prompts).toBeDefined();
    expect(caps?.completions).toBeDefined();
    expect(caps?.logging).toBeDefined();
  });

  it("lists a clashing URI under the second server's prefix and reads each from its owner", async () => {
    const { resources } = await alice.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain("test://static-text");
    expect(uris).toContain("toolnexus+other:test://static-text");
    expect(resources.find((r) => r.uri === "toolnexus+other:test://static-text")?.name).toMatch(/from other/);
    const first = await alice.readResource({ uri: "test://static-text" });
    const second = await alice.readResource({ uri: "toolnexus+other:test://static-text" });
    expect(first.contents[0]).toMatchObject({ text: "This is the content of the static text resource." });
    expect(second.contents[0]).toMatchObject({ uri: "test://static-text", text: "This is the content of the static text resource." });
    const templated = await alice.readResource({ uri: "test://template/42/data" });
    expect(JSON.parse(String((templated.contents[0] as { text: string }).text))).toMatchObject({ id: "42" });
    await expect(alice.readResource({ uri: "nope://missing" })).rejects.toThrow(/Resource not found/);
  });

  it("names prompts <server>_<prompt> and passes arguments and completions to the owner", async () => {
    const { prompts } = await alice.listPrompts();
    const names = prompts.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(["test_prompt_with_arguments", "other_prompt_with_arguments", "other_prompt_with_image"]));
    const got = await alice.getPrompt({ name: "other_prompt_with_arguments", arguments: { arg1: "a", arg2: "b" } });
    expect(got.messages[0].content).toEqual({ type: "text", text: "Prompt with arguments: arg1='a', arg2='b'" });
    const image = await alice.getPrompt({ name: "test_prompt_with_image" });
    expect(image.messages[0].content).toMatchObject({ type: "image", mimeType: "image/png" });
    const done = await alice.complete({ ref: { type: "ref/prompt", name: "test_prompt_with_arguments" }, argument: { name: "arg1", value: "par" } });
    expect(done.completion.values).toEqual(["paris", "park", "party"]);
    const ids = await alice.complete({ ref: { type: "ref/resource", uri: "test://template/{id}/data" }, argument: { name: "id", value: "4" } });
    expect(ids.completion.values).toEqual(["456"]);
  });

  it("delivers resources/updated to the subscribing agent only", async () => {
    const seen: Record<string, string[]> = { alice: [], bob: [] };
    alice.setNotificationHandler("notifications/resources/updated", (n) => void seen.alice.push(n.params.uri));
    bob.setNotificationHandler("notifications/resources/updated", (n) => void seen.bob.push(n.params.uri));
    await alice.subscribeResource({ uri: "toolnexus+other:test://watched-resource" });
    await becomesTrue(() => seen.alice.length > 0, 5000);
    expect(seen.alice).toEqual(["toolnexus+other:test://watched-resource"]);
    expect(seen.bob).toEqual([]);
    await alice.unsubscribeResource({ uri: "toolnexus+other:test://watched-resource" });
  });

  it("refuses a server's sampling request when the calling agent cannot sample", async () => {
    const result = await alice.callTool({ name: "test_sampling", arguments: { prompt: "hi" } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/no agent that can answer this is calling this server now/);
  });
});
