// Config: a remote server's pre-registered OAuth client (`oauth: { clientId, clientSecret?, scopes? }`).
import { describe, expect, it } from "vitest";
import { parseConfig } from "../../../../../src/main/mcp/config/parse";

const parse = (oauth: unknown) => parseConfig({ mcpServers: { s: { url: "https://mcp.example.com/mcp", oauth } } }, { env: { CID: "from-env" } });

describe("remote server oauth", () => {
  it("reads clientId, clientSecret and scopes, expanding ${VAR}", () => {
    const { servers } = parse({ clientId: "${CID}", clientSecret: "sec", scopes: ["read", "write"] });
    expect(servers[0]).toMatchObject({ type: "remote", oauth: { clientId: "from-env", clientSecret: "sec", scopes: ["read", "write"] } });
    expect(parseConfig({ mcpServers: { s: { url: "https://x.example/mcp" } } }).servers[0]).not.toHaveProperty("oauth");
  });

  it("fails that server, by name, for a malformed oauth", () => {
    for (const [oauth, why] of [
      ["cid", /oauth must be an object/],
      [{}, /oauth.clientId/],
      [{ clientId: "c", clientSecret: 5 }, /oauth.clientSecret/],
      [{ clientId: "c", scopes: ["a b"] }, /oauth.scopes/],
    ] as const) {
      const { servers, invalid } = parse(oauth);
      expect(servers).toEqual([]);
      expect(invalid[0].name).toBe("s");
      expect(invalid[0].error).toMatch(why);
    }
  });
});
