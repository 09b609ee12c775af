// Sign-in works whatever the server speaks: the 2025-11-25 era over streamable HTTP, and the
// legacy SSE transport (the 2026-07-28 era over streamable HTTP is oauth-signin.test.ts).
import { describe, expect, it } from "vitest";
import { createMemoryStore } from "../../src/main/secrets";
import { companion, signingPerson, startOAuthServer, until } from "./oauth-harness";
import { outputOf } from "../helpers/tool-output";

describe("OAuth sign-in across protocol eras and transports", () => {
  for (const { era, entry, transport } of [
    { era: "legacy", entry: { type: "streamable-http" }, transport: "streamable-http" },
    { era: "sse", entry: { type: "sse" }, transport: "sse" },
  ]) {
    it(`${era}: one sign-in question, then connected over ${transport} (2025-11-25) with a working elicitation`, async () => {
      const server = await startOAuthServer(["--era", era]);
      const pages: Array<{ status: number; body: string }> = [];
      const run = await companion(createMemoryStore("test"), server.url, signingPerson(pages), { ...entry, protocol: "legacy" });
      const status = await until(run.source, (s) => s.state === "connected" || s.state === "failed");
      expect(status).toMatchObject({ state: "connected", transport, protocol: "2025-11-25" });
      expect(run.questions.map((q) => q.request.kind)).toEqual(["authorization"]);
      expect(pages.map((p) => p.status)).toEqual([200]);
      const tool = run.source.tools.find((t) => t.name === "secure_ask_region")!;
      expect((await outputOf(tool.execute({}))).output).toBe("region: emea");
      expect(await server.stats()).toMatchObject({ authorize: 1, codeGrants: 1 });
    }, 30_000);
  }
});
