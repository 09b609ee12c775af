// What the import list may show the page of a found server's command line and URL.
import { describe, expect, it } from "vitest";
import { MASK, redactArgs, redactUrl } from "../../../../src/main/secrets/redact-view";

describe("redactArgs", () => {
  it("masks a secret flag's value, in either spelling, and KEY=value pairs", () => {
    expect(redactArgs(["--api-key=sk-live-abc", "--token", "abc123", "--verbose", "-e", "GITHUB_TOKEN=ghp_x", "--port", "8080"])).toEqual([
      `--api-key=${MASK}`,
      "--token",
      MASK,
      "--verbose",
      "-e",
      `GITHUB_TOKEN=${MASK}`,
      "--port",
      "8080",
    ]);
  });
  it("masks token-shaped values whatever their flag, Bearer values and URL secrets; leaves ordinary args and references alone", () => {
    expect(redactArgs(["ghp_abcdefghijklmnop1234", "Authorization: Bearer abc.def", "https://u:pw@h.example/mcp?token=t1&x=1", "-y", "@modelcontextprotocol/server-github", "${GITHUB_TOKEN}"])).toEqual([
      MASK,
      `Authorization: Bearer ${MASK}`,
      `https://u:${MASK}@h.example/mcp?token=${MASK}&x=1`,
      "-y",
      "@modelcontextprotocol/server-github",
      "${GITHUB_TOKEN}",
    ]);
  });
});

describe("redactUrl", () => {
  it("masks secret query values and a password; a plain URL is unchanged", () => {
    expect(redactUrl("https://mcp.example.com/sse?api_key=abc&region=eu")).toBe(`https://mcp.example.com/sse?api_key=${MASK}&region=eu`);
    expect(redactUrl("https://mcp.sentry.dev/mcp")).toBe("https://mcp.sentry.dev/mcp");
    expect(redactUrl("not a url")).toBe("not a url");
    // A malformed escape elsewhere in the URL does not throw.
    expect(redactUrl("https://h.example/%E0%A4%A?token=abc")).toBe(`https://h.example/%E0%A4%A?token=${MASK}`);
  });
});
