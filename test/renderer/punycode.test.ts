// The URL card shows the Unicode name a punycode host stands for (issue 10).
import { describe, it, expect } from "vitest";
import { decodeLabel, hostToUnicode } from "../../src/renderer/lib/punycode";

describe("punycode", () => {
  it("decodes look-alike and international hosts (RFC 3492 and known examples)", () => {
    expect(hostToUnicode("xn--80ak6aa92e.com")).toBe("аррӏе.com");
    expect(hostToUnicode("xn--mnchen-3ya.de")).toBe("münchen.de");
    expect(hostToUnicode("www.xn--bcher-kva.example")).toBe("www.bücher.example");
    expect(hostToUnicode("xn--fsqu00a.xn--0zwm56d")).toBe("例子.测试");
    // RFC 3492 7.1 (A) Arabic (Egyptian).
    expect(decodeLabel("egbpdaj6bu4bxfgehfvwxn")).toBe("\u0644\u064A\u0647\u0645\u0627\u0628\u062A\u0643\u0644\u0645\u0648\u0634\u0639\u0631\u0628\u064A\u061F");
  });

  it("leaves plain and broken labels alone and never throws", () => {
    expect(hostToUnicode("example.com")).toBe("example.com");
    expect(hostToUnicode("xn--.com")).toBe("xn--.com");
    expect(hostToUnicode("xn--99999999999999999.com")).toBe("xn--99999999999999999.com");
    expect(hostToUnicode("xn--ab!.com")).toBe("xn--ab!.com");
  });
});
