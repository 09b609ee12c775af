// The gateway's refusals in the standard's words (RFC 6750 challenge, OAuth discovery paths).
import { describe, expect, it } from "vitest";
import { extractWWWAuthenticateParams } from "@modelcontextprotocol/client";
import { discoveryRefusal, gatewayChallenge } from "../../../../src/main/gateway/token-refusal";

describe("gateway refusal", () => {
  it("challenges with invalid_token and a description an SDK client can read back", () => {
    const params = extractWWWAuthenticateParams(new Response(null, { status: 401, headers: { "www-authenticate": gatewayChallenge() } }));
    expect(params.error).toBe("invalid_token");
    expect(params.errorDescription).toContain("toolnexus-companion token");
    expect(params.resourceMetadataUrl).toBeUndefined();
  });

  it("answers every OAuth discovery path, stopping authorization-server discovery with a 5xx", () => {
    expect(discoveryRefusal("/.well-known/oauth-protected-resource")?.status).toBe(404);
    expect(discoveryRefusal("/.well-known/oauth-protected-resource/mcp")?.status).toBe(404);
    for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/oauth-authorization-server/mcp", "/.well-known/openid-configuration", "/.well-known/openid-configuration/mcp"]) {
      const refusal = discoveryRefusal(path)!;
      expect(refusal.status).toBe(501);
      expect(refusal.body.error_description).toContain("not an OAuth authorization server");
    }
    expect(discoveryRefusal("/.well-known/oauth-protected-resourcex")).toBeUndefined();
    expect(discoveryRefusal("/.well-known/security.txt")).toBeUndefined();
  });
});
