// Property: the listener's cheap path split (targetPath) says exactly what the full URL parse
// says, for any target a client may send: same path, and refused (undefined) on the same inputs.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseTarget, targetPath } from "../../src/main/http/request-target";

// Path-shaped pieces, the ones the URL parser rewrites (dot segments, %2e, backslashes,
// controls), and plain noise.
const piece = fc.oneof(
  fc.constantFrom("/", "//", "/mcp", "/v1/requests", ".", "..", "/.", "/..", "%2e", "%2E", "%", "%zz", "\\", "?", "#", "?wait=30", " ", "\t", "\n", "\u0000", "~", "-", "_", "a.b", "é", "http://[", "http://127.0.0.1:7315", "https://x/"),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "binary", maxLength: 8 }),
);
const target = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(""));

describe("targetPath", () => {
  it("equals parseTarget(...)?.pathname for every target", () => {
    fc.assert(
      fc.property(fc.oneof(target, target.map((t) => `/${t}`)), (t) => {
        expect(targetPath(t)).toBe(parseTarget(t)?.pathname);
      }),
      { numRuns: 300 },
    );
  });

  it("takes the plain targets agents send without a URL, and the rewritten ones as the parser does", () => {
    expect(targetPath("/mcp")).toBe("/mcp");
    expect(targetPath("/v1/requests/req-1?wait=30")).toBe("/v1/requests/req-1");
    expect(targetPath(undefined)).toBe("/");
    expect(targetPath("/a/../mcp")).toBe("/mcp");
    expect(targetPath("/%2e%2e/mcp")).toBe("/mcp");
    expect(targetPath("/a\\..\\mcp")).toBe("/mcp");
    expect(targetPath("http://[")).toBeUndefined();
  });
});
