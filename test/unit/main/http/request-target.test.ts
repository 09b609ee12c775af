// The request target as a URL, total: malformed targets are undefined (the listener's 400), and
// no target names another host.
import { describe, expect, it } from "vitest";
import { parseTarget, tryDecode } from "../../../../src/main/http/request-target";

describe("parseTarget", () => {
  it.each([
    ["/", "/", ""],
    ["/ws", "/ws", ""],
    ["/v1/requests/a%20b?x=1", "/v1/requests/a%20b", "?x=1"],
    ["//", "//", ""],
    ["//evil.example/x", "//evil.example/x", ""],
    ["http://127.0.0.1:7315/ws?t=1", "/ws", "?t=1"],
  ])("reads %s as a path on our own origin", (target, pathname, search) => {
    const url = parseTarget(target)!;
    expect(url.host).toBe("127.0.0.1");
    expect(url.pathname).toBe(pathname);
    expect(url.search).toBe(search);
  });
  it.each(["http://[", "http://[::1/", "*", "ftp://x/", "javascript:alert(1)", "", "http://"])("refuses %j", (target) => {
    expect(parseTarget(target)).toBeUndefined();
  });
  it("reads a missing target as /", () => expect(parseTarget(undefined)?.pathname).toBe("/"));
});

describe("tryDecode", () => {
  it("decodes or says undefined", () => {
    expect(tryDecode("a%20b")).toBe("a b");
    expect(tryDecode("%E0%A4%A")).toBeUndefined();
    expect(tryDecode("%")).toBeUndefined();
  });
});
