import { describe, expect, it } from "vitest";
import { answerToElicitResult, elicitationProblem, elicitationToRequest } from "../../../../src/main/mcp/elicit";
import type { Answer, Request } from "../../../../src/shared/types";

describe("elicitationToRequest (seed examples)", () => {
  it("Rust 1: form mode becomes a kind:input Request with the schema under data.schema", () => {
    const params = {
      mode: "form",
      message: "What is your deployment region?",
      requestedSchema: { type: "object", properties: { region: { type: "string" } } },
    };
    const req = elicitationToRequest(params);
    expect(req.kind).toBe("input");
    expect(req.prompt).toBe("What is your deployment region?");
    expect(req.id.startsWith("elc-")).toBe(true);
    expect(req.data?.schema).toEqual(params.requestedSchema);
  });

  it("Rust 2: URL mode becomes a kind:authorization Request with the url", () => {
    const req = elicitationToRequest({ mode: "url", message: "Sign in to continue", url: "https://example.com/oauth/authorize" });
    expect(req.kind).toBe("authorization");
    expect(req.url).toBe("https://example.com/oauth/authorize");
  });

  it("Java 1: the two shapes — form carries no url, url mode carries no data", () => {
    const schema = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
    const formReq = elicitationToRequest({ message: "Your name?", requestedSchema: schema });
    expect(formReq).toEqual({ id: formReq.id, kind: "input", prompt: "Your name?", data: { schema } });
    expect("url" in formReq).toBe(false);
    const urlReq = elicitationToRequest({ mode: "url", message: "Log in", url: "https://x/auth", elicitationId: "e1" });
    expect(urlReq).toEqual({ id: urlReq.id, kind: "authorization", prompt: "Log in", url: "https://x/auth" });
    expect("data" in urlReq).toBe(false);
  });

  it("mode form and absent mode both give input; an unknown mode is a form too", () => {
    for (const mode of ["form", undefined, "something-else"]) {
      expect(elicitationToRequest({ mode, message: "m", requestedSchema: {} }).kind).toBe("input");
    }
  });

  it("absent message gives prompt ''", () => {
    expect(elicitationToRequest({ requestedSchema: {} }).prompt).toBe("");
    expect(elicitationToRequest({ mode: "url", url: "https://a" }).prompt).toBe("");
    expect(elicitationToRequest(undefined).prompt).toBe("");
  });

  it("keys are exactly the contract's", () => {
    const keys = (r: Request) => Object.keys(r).sort();
    expect(keys(elicitationToRequest({ message: "m", requestedSchema: {} }))).toEqual(["data", "id", "kind", "prompt"]);
    expect(keys(elicitationToRequest({ mode: "url", message: "m", url: "https://a" }))).toEqual(["id", "kind", "prompt", "url"]);
  });

  it("ids are elc-… and unique across 10,000 calls", () => {
    const ids = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const { id } = elicitationToRequest({ message: "m", requestedSchema: {} });
      expect(id).toMatch(/^elc-./);
      ids.add(id);
    }
    expect(ids.size).toBe(10_000);
  });
});

describe("answerToElicitResult (seed examples)", () => {
  it("Rust 3: accept with data, decline, expired ⇒ cancel", () => {
    expect(answerToElicitResult({ ok: true, data: { region: "apac" } })).toEqual({ action: "accept", content: { region: "apac" } });
    expect(answerToElicitResult({ ok: false, reason: "declined" })).toEqual({ action: "decline" });
    expect(answerToElicitResult({ ok: false, reason: "expired" })).toEqual({ action: "cancel" });
  });

  it("Java 3: accepted / declined / expired / no reason", () => {
    const classify = (a: Answer) => answerToElicitResult(a).action;
    expect(classify({ id: "id-1", ok: true, data: { name: "Ada" } })).toBe("accept");
    expect(classify({ id: "id-2", ok: false, reason: "declined" })).toBe("decline");
    expect(classify({ id: "id-3", ok: false, reason: "expired" })).toBe("cancel");
    expect(classify({ id: "id-4", ok: false })).toBe("cancel");
  });

  it("ok without data gives content {}", () => {
    expect(answerToElicitResult({ ok: true })).toEqual({ action: "accept", content: {} });
  });

  it("reasons expired, cancelled, '' and none all give cancel", () => {
    for (const reason of ["expired", "cancelled", "", undefined]) {
      expect(answerToElicitResult({ ok: false, reason })).toEqual({ action: "cancel" });
    }
  });

  it("ok:true wins over a stray reason", () => {
    expect(answerToElicitResult({ ok: true, reason: "declined" }).action).toBe("accept");
  });
});

describe("elicitationProblem (issue 7: bounds before the Inbox)", () => {
  const form = (requestedSchema: unknown, message = "Your name?") => ({ mode: "form", message, requestedSchema });
  const flat = { type: "object", properties: { name: { type: "string", pattern: "^(a+)+$" } }, required: ["name"] };

  it("lets valid params through, and they map exactly as elicit.ts's mapping says", () => {
    expect(elicitationProblem(form(flat))).toBeUndefined();
    expect(elicitationProblem({ mode: "url", message: "Sign in", url: "https://example.com/a", elicitationId: "e" })).toBeUndefined();
    expect(elicitationProblem(undefined)).toBeUndefined();
    expect(elicitationToRequest(form(flat)).data).toEqual({ schema: flat });
  });

  it("refuses params nested past the bound, wherever the depth hides", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 10_000; i++) deep = { d: deep };
    expect(elicitationProblem(form({ ...flat, extra: deep }))).toMatch(/nested more than 64 levels deep/);
    expect(elicitationProblem({ ...form(flat), _meta: deep })).toMatch(/nested more than 64 levels deep/);
  });

  it("refuses a form past the property, option and string limits, saying which", () => {
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, { type: "string" }]));
    expect(elicitationProblem(form({ type: "object", properties: many }))).toMatch(/101 fields; at most 100/);
    const options = Array.from({ length: 100_000 }, (_, i) => `o${i}`);
    expect(elicitationProblem(form({ type: "object", properties: { c: { type: "string", enum: options } } }))).toMatch(/"c" offers 100000 choices/);
    expect(elicitationProblem(form({ type: "object", properties: { c: { type: "string", description: "d".repeat(10_001) } } }))).toMatch(/longer than 10000/);
  });

  it("refuses an overlong message or URL", () => {
    expect(elicitationProblem(form(flat, "m".repeat(20_001)))).toMatch(/message is longer than 20000/);
    expect(elicitationProblem({ mode: "url", message: "", url: `https://x.test/${"p".repeat(9000)}` })).toMatch(/URL is longer than 8192/);
  });

  it("leaves a schema that is not an object to the page to explain", () => {
    expect(elicitationProblem(form("not a schema"))).toBeUndefined();
  });
});
