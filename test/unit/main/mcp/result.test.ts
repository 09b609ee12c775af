import { describe, expect, it } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { boundedResult, outputForPage, toToolOutput } from "../../../../src/main/mcp/result";

describe("boundedResult and toToolOutput", () => {
  it("isError ⇒ an error with the joined text", () => {
    const result = { isError: true, content: [{ type: "text", text: "bad" }, { type: "image", data: "…" }, { type: "text", text: "worse" }] } as CallToolResult;
    // Within bounds, the result goes on as the server gave it.
    expect(boundedResult("s", "t", result)).toBe(result);
    expect(toToolOutput(result)).toEqual({ output: "bad\nworse", isError: true });
  });

  it("structuredContent ⇒ its JSON, even next to text", () => {
    const result = { content: [{ type: "text", text: "ignored" }], structuredContent: { a: 1, b: [true] } } as CallToolResult;
    expect(toToolOutput(result)).toMatchObject({ output: '{"a":1,"b":[true]}', isError: false });
  });

  it("otherwise the text parts joined", () => {
    expect(toToolOutput({ content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }).output).toBe("a\nb");
    expect(toToolOutput({} as CallToolResult).output).toBe("");
  });
});

describe("results out of bounds", () => {
  it("a deep structuredContent becomes an error saying why, with a result that serialises", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = { d: deep };
    const bounded = boundedResult("s", "t", { content: [], structuredContent: deep as Record<string, unknown> });
    const out = toToolOutput(bounded);
    expect(out.isError).toBe(true);
    expect(out.output).toMatch(/^s: the result of t was refused: it is nested more than 64 levels deep/);
    expect(() => JSON.stringify(bounded)).not.toThrow();
  });

  it("a page gets at most MAX_RESULT_BYTES_TO_PAGE bytes, cut on a character, with a note", () => {
    expect(outputForPage("short")).toBe("short");
    const big = "é".repeat(1_000_000);
    const cut = outputForPage(big);
    expect(Buffer.byteLength(cut)).toBeLessThan(1024 * 1024 + 100);
    expect(cut).toMatch(/\[output truncated: showing 1048576 of 2000000 bytes\]$/);
    expect(cut).not.toContain("\uFFFD");
  });
});
