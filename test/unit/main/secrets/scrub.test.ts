// The redaction registry on its own: what it registers, the encodings it catches, overlaps,
// short values, rotation, and (fast-check) that no registered value survives in any text.
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { MIN_SECRET_LENGTH, REDACTED, SecretScrubber } from "../../../../src/main/secrets/scrub";
import { looksLikeSecretValue as looksLikeSecret } from "../../../../src/forms/secret-shape";
import { registerConfiguredSecrets } from "../../../../src/main/mcp/config/secrets";
import { registeringStore } from "../../../../src/main/secrets/registering-store";
import { createMemoryStore } from "../../../../src/main/secrets/memory-store";

const TOKEN = "s3cr3t-T0ken/with+chars=&<q>\"x\"";

describe("SecretScrubber", () => {
  it("replaces a registered value and its URL, form, JSON, HTML and base64 encodings", () => {
    const s = new SecretScrubber();
    s.register(TOKEN);
    const forms = [
      TOKEN,
      encodeURIComponent(TOKEN),
      JSON.stringify(TOKEN).slice(1, -1),
      TOKEN.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;"),
      Buffer.from(TOKEN).toString("base64"),
      Buffer.from(TOKEN).toString("base64url"),
    ];
    for (const form of forms) {
      const out = s.scrub(`401 Unauthorized: got ${form} (bad)`);
      expect(out).toBe(`401 Unauthorized: got ${REDACTED} (bad)`);
    }
    // JSON of JSON, as an error quoting a JSON body does it.
    const nested = JSON.stringify(JSON.stringify({ authorization: TOKEN }));
    expect(s.scrub(nested)).not.toContain(TOKEN);
    expect(s.scrub(nested)).toContain(REDACTED);
  });

  it("leaves text without secrets untouched, and returns the very same object for a clean value", () => {
    const s = new SecretScrubber();
    s.register("abcdefghijkl");
    expect(s.scrub("nothing to see")).toBe("nothing to see");
    const value = { a: ["x", { b: "y" }], n: 1 };
    expect(s.scrubValue(value)).toBe(value);
    const dirty = { a: ["x", { b: "key=abcdefghijkl" }], n: 1, keep: { c: "z" } };
    const out = s.scrubValue(dirty);
    expect(out).toEqual({ a: ["x", { b: `key=${REDACTED}` }], n: 1, keep: { c: "z" } });
    expect(out.keep).toBe(dirty.keep);
    expect(dirty.a[1]).toEqual({ b: "key=abcdefghijkl" });
  });

  it("does not register values shorter than the minimum (they would blank ordinary words)", () => {
    const s = new SecretScrubber();
    s.register("abc12");
    s.register("");
    expect(s.size).toBe(0);
    expect(s.scrub("abc12 stays")).toBe("abc12 stays");
    s.register("x".repeat(MIN_SECRET_LENGTH));
    expect(s.scrub(`a ${"x".repeat(MIN_SECRET_LENGTH)} b`)).toBe(`a ${REDACTED} b`);
  });

  it("hides overlapping secrets whole, whichever registered first", () => {
    const s = new SecretScrubber();
    s.register("AAAAbbbbCCCC");
    s.register("CCCCddddEEEE");
    s.register("bbbbCC");
    expect(s.scrub("x AAAAbbbbCCCCddddEEEE y")).toBe(`x ${REDACTED} y`);
    expect(s.scrub("x CCCCddddEEEE AAAAbbbbCCCC y")).toBe(`x ${REDACTED} ${REDACTED} y`);
    // A secret inside another.
    s.register("zzzzzzzzzzzzINNERzz");
    s.register("INNERzzqq");
    expect(s.scrub("-zzzzzzzzzzzzINNERzzqq-")).toBe(`-${REDACTED}-`);
  });

  it("keeps a rotated value registered next to its successor", () => {
    const s = new SecretScrubber();
    s.register("old-token-123456");
    expect(s.scrub("old-token-123456")).toBe(REDACTED);
    s.register("new-token-abcdef");
    expect(s.scrub("old-token-123456 new-token-abcdef")).toBe(`${REDACTED} ${REDACTED}`);
  });

  it("registers a header's credential after its scheme, so errors still say which scheme was sent", () => {
    const s = new SecretScrubber();
    s.registerHeader("Authorization", "Bearer tok-abcdef-123");
    expect(s.scrub("authorization: Bearer tok-abcdef-123")).toBe(`authorization: Bearer ${REDACTED}`);
    expect(s.scrub(Buffer.from("Bearer tok-abcdef-123").toString("base64"))).toBe(REDACTED);
    // A credential too short to register on its own: the whole value is registered instead.
    s.registerHeader("Authorization", "token abc12");
    expect(s.scrub("got token abc12.")).toBe(`got ${REDACTED}.`);
    // Basic: the base64 credential, and decoded user:password and password.
    const basic = Buffer.from("alice:pa55word-xyz").toString("base64");
    s.registerHeader("Authorization", `Basic ${basic}`);
    expect(s.scrub(`Basic ${basic} / alice:pa55word-xyz / pa55word-xyz`)).toBe(`Basic ${REDACTED} / ${REDACTED} / ${REDACTED}`);
    // A header that carries no credential stays readable.
    s.registerHeader("Content-Type", "application/json");
    expect(s.scrub("Content-Type: application/json")).toBe("Content-Type: application/json");
  });

  it("registers stdio env values by name (TOKEN, KEY, PAT…) or by look, not ordinary settings", () => {
    const s = new SecretScrubber();
    s.registerEnv("GITHUB_TOKEN", "ghp_short1");
    s.registerEnv("GH_PAT", "patvalue99");
    s.registerEnv("OPENAI_API_KEY", "sk-aaaaaaaaaaaa");
    s.registerEnv("DATABASE_URL", "postgres://me:hunter2-pw@db.local/app");
    s.registerEnv("CONFIG", "Zx9qL2vR8tY4wB6nM1kP");
    s.registerEnv("PATH", "/usr/local/bin:/usr/bin:/bin");
    s.registerEnv("LOG_LEVEL", "debugging");
    s.registerEnv("GREETING", "hello everyone here");
    const out = s.scrub("ghp_short1 patvalue99 sk-aaaaaaaaaaaa hunter2-pw Zx9qL2vR8tY4wB6nM1kP /usr/local/bin:/usr/bin:/bin debugging hello everyone here");
    expect(out).toBe(`${REDACTED} ${REDACTED} ${REDACTED} ${REDACTED} ${REDACTED} /usr/local/bin:/usr/bin:/bin debugging hello everyone here`);
    expect(looksLikeSecret("0123456789abcdef0123456789abcdef")).toBe(true);
    expect(looksLikeSecret("/home/someone/projects/thing")).toBe(false);
    expect(looksLikeSecret("documentation-website")).toBe(false);
  });

  it("never re-redacts its own marker", () => {
    const s = new SecretScrubber();
    s.register("edacte");
    s.register("[redacted]");
    expect(s.size).toBe(0);
    expect(s.scrub(`a ${REDACTED}`)).toBe(`a ${REDACTED}`);
  });

  it("scrubs errors in place, details included", () => {
    const s = new SecretScrubber();
    s.register("the-secret-value");
    const error = Object.assign(new Error("server said the-secret-value"), { details: ["x the-secret-value"] });
    expect(s.scrubError(error)).toBe(error);
    expect(error.message).toBe(`server said ${REDACTED}`);
    expect(error.details).toEqual([`x ${REDACTED}`]);
  });

  it("walks values too deep to serialise instead of passing them through", () => {
    const s = new SecretScrubber();
    s.register("deep-secret-value");
    let deep: unknown = "deep-secret-value";
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(JSON.stringify(s.scrubValue({ deep }))?.includes("deep-secret-value") ?? false).toBe(false);
  });
});

describe("what gets registered", () => {
  it("registers a config's literal and ${ENV} header values and secret-looking stdio env values", () => {
    const s = new SecretScrubber();
    registerConfiguredSecrets(
      {
        mcpServers: {
          r: {
            url: "http://user:url-pass-123@127.0.0.1:9/mcp",
            headers: { Authorization: "Bearer ${secret:tok}", "X-Api-Key": "literal-key-value-123456", "X-Env": "${MY_KEY}", "X-Other": "token {env:OTHER}", "X-Dflt": "${UNSET:-fallback-value-1}", Accept: "application/json" },
          },
          l: { command: "node", env: { API_TOKEN: "env-token-987654", MODE: "production" } },
        },
      },
      s,
      { MY_KEY: "from-the-environment", OTHER: "other-env-value" },
    );
    const out = s.scrub("literal-key-value-123456 from-the-environment env-token-987654 url-pass-123 other-env-value fallback-value-1 production application/json ${secret:tok}");
    expect(out).toBe(`${REDACTED} ${REDACTED} ${REDACTED} ${REDACTED} ${REDACTED} ${REDACTED} production application/json \${secret:tok}`);
  });

  it("ignores a config it cannot read", () => {
    const s = new SecretScrubber();
    registerConfiguredSecrets("not json", s);
    registerConfiguredSecrets([1, 2], s);
    expect(s.size).toBe(0);
  });

  it("registers every value read from or written to the store", async () => {
    const s = new SecretScrubber();
    const inner = createMemoryStore("test");
    await inner.set("already", "stored-before-wrap");
    const store = registeringStore(inner, s);
    expect(s.scrub("stored-before-wrap")).toBe("stored-before-wrap");
    expect(await store.get("already")).toBe("stored-before-wrap");
    await store.set("new", "written-through-wrap");
    expect(s.scrub("stored-before-wrap written-through-wrap")).toBe(`${REDACTED} ${REDACTED}`);
    expect(await store.list()).toEqual(["already", "new"]);
  });
});

describe("property: a registered secret never survives", () => {
  const secretArb = fc.string({ minLength: MIN_SECRET_LENGTH, maxLength: 40, unit: "grapheme-ascii" });
  const textArb = fc.string({ maxLength: 60 });

  it("in any text, raw or in any encoding", () => {
    fc.assert(
      fc.property(fc.array(secretArb, { minLength: 1, maxLength: 4 }), fc.array(textArb, { minLength: 1, maxLength: 5 }), fc.nat(), (secrets, parts, pick) => {
        const s = new SecretScrubber();
        for (const secret of secrets) s.register(secret);
        const secret = secrets[pick % secrets.length];
        if (REDACTED.includes(secret)) return; // never registered (see the marker test)
        const encodings = [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)];
        const text = parts.join(encodings[pick % encodings.length]);
        const out = s.scrub(parts.length > 1 ? text : `${parts[0]}${encodings[pick % encodings.length]}`);
        for (const form of encodings) expect(out.includes(form)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it("in any JSON value holding it", () => {
    fc.assert(
      fc.property(secretArb, fc.jsonValue({ maxDepth: 4 }), (secret, value) => {
        if (REDACTED.includes(secret)) return;
        const s = new SecretScrubber();
        s.register(secret);
        const holder = { value, echo: `Authorization: Bearer ${secret}`, list: [value, secret] };
        expect(JSON.stringify(s.scrubValue(holder)).includes(JSON.stringify(secret).slice(1, -1))).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});
