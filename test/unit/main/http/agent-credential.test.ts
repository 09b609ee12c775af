import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { agentCredential, agentOfCredential } from "../../../../src/main/http/agent-credential";

const TOKEN = "the-gateway-token-0123456789";

describe("per-agent credentials", () => {
  it("name their agent, and only under the token that made them", () => {
    const cursor = agentCredential(TOKEN, "cursor");
    expect(agentOfCredential(TOKEN, cursor)).toBe("cursor");
    expect(agentOfCredential("another-token-after-rotation", cursor)).toBeUndefined();
    expect(cursor).not.toContain(TOKEN);
  });

  it("cannot be made for another agent by editing the name", () => {
    const cursor = agentCredential(TOKEN, "cursor");
    expect(agentOfCredential(TOKEN, cursor.replace(".cursor.", ".claude-code."))).toBeUndefined();
    expect(agentOfCredential(TOKEN, `${cursor}x`)).toBeUndefined();
    expect(agentOfCredential(TOKEN, cursor.slice(0, -1))).toBeUndefined();
  });

  it("refuse names that are not agent names", () => {
    for (const bad of ["", "Cursor", "a b", "../x", "x".repeat(65), "é"]) expect(() => agentCredential(TOKEN, bad)).toThrow(/not an agent name/);
  });

  it("never take an arbitrary string for one", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => agentOfCredential(TOKEN, s) === undefined),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,20}$/), fc.string({ minLength: 1, maxLength: 60 }), (agent, mac) => agentOfCredential(TOKEN, `tnca1.${agent}.${mac}`) === undefined),
      { numRuns: 300 },
    );
  });
});
