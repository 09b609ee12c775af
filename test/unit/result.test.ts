import { describe, expect, it } from "vitest";
import { toToolOutput } from "../../src/main/mcp/result";

describe("toToolOutput", () => {
  it("isError ⇒ an error with the joined text", () => {
    const result = { isError: true, content: [{ type: "text", text: "bad" }, { type: "image", data: "…" }, { type: "text", text: "worse" }] };
    expect(toToolOutput("s", "t", result)).toMatchObject({ output: "bad\nworse", isError: true, metadata: { server: "s", tool: "t", result } });
  });

  it("structuredContent ⇒ its JSON, even next to text", () => {
    const result = { content: [{ type: "text", text: "ignored" }], structuredContent: { a: 1, b: [true] } };
    expect(toToolOutput("s", "t", result)).toMatchObject({ output: '{"a":1,"b":[true]}', isError: false });
  });

  it("otherwise the text parts joined", () => {
    expect(toToolOutput("s", "t", { content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] }).output).toBe("a\nb");
    expect(toToolOutput("s", "t", {}).output).toBe("");
  });
});
