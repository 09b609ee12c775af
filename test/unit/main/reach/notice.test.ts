// The one text every message carries: who asks and the start of the prompt, scrubbed whole before
// it is cut, on one plain line; less when the person chose less; never the question's data or url.
import { describe, expect, it } from "vitest";
import { noticeFor, plainLine, questionLink, WAITING } from "../../../../src/main/reach/notice";
import { SecretScrubber } from "../../../../src/main/secrets";
import type { PendingEntry } from "../../../../src/shared/types";

const SECRET = "sk-0123456789abcdefghij";
const scrubber = new SecretScrubber();
scrubber.register(SECRET);
const scrub = (t: string) => scrubber.scrub(t);

const entry = (prompt: string, over: Partial<PendingEntry["request"]> = {}, source: PendingEntry["source"] = { server: "github" }): PendingEntry => ({
  request: { id: "q/1 ?x", kind: "input", prompt, url: "https://example.com/secret-path", data: { schema: { type: "object", properties: { a: { type: "string", default: "form-default" } } } }, ...over },
  source,
  receivedAt: 1,
});

describe("notice", () => {
  it("says who asks and the question's start, with a link that opens it", () => {
    const n = noticeFor(entry("Which branch?"), { detail: "full", linkBase: "https://pc.tail.example:7316/", scrub });
    expect(n).toEqual({ id: "q/1 ?x", approval: false, title: "github asks", body: "Which branch?", url: "https://pc.tail.example:7316/#/q/q%2F1%20%3Fx" });
    expect(JSON.stringify(n)).not.toMatch(/form-default|secret-path/);
  });

  it("scrubs before it cuts, so a secret at the cut is hidden whole", () => {
    const prompt = `${"x".repeat(130)} ${SECRET} and more`;
    const n = noticeFor(entry(prompt), { detail: "full", scrub });
    expect(n.body).not.toContain(SECRET.slice(0, 6));
    expect(n.body.length).toBeLessThanOrEqual(140);
    const asker = noticeFor(entry("?", {}, { agent: `bot-${SECRET}` }), { detail: "full", scrub });
    expect(asker.title).toBe("bot-[redacted] asks");
  });

  it("keeps one plain line: no control characters, bidi overrides or line breaks", () => {
    expect(plainLine("a\u202Eb\nc\td\u0000e\u2028f", 100)).toBe("a b c d e f");
    expect(plainLine("abcdef", 4)).toBe("abc…");
  });

  it("says less when asked to", () => {
    const approval = entry("Allow claude to run: rm -rf /", { kind: "approval" }, { agent: "claude" });
    expect(noticeFor(approval, { detail: "asker", scrub })).toMatchObject({ title: "claude asks for approval", body: WAITING, approval: true });
    expect(noticeFor(approval, { detail: "none", scrub })).toMatchObject({ title: WAITING, body: "Open the companion to answer it." });
    expect(questionLink(undefined, "x")).toBeUndefined();
  });
});
