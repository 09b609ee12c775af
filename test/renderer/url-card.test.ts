import { describe, it, expect, vi, afterEach } from "vitest";
import { render, screen, fireEvent } from "@testing-library/svelte";
import UrlCard from "../../src/renderer/components/UrlCard.svelte";
import { entry, ok } from "./fake-api";
import type { AnswerInput, Envelope } from "../../src/shared/contract";
import type { Answer } from "../../src/shared/types";

function setup(url: string, opened = false) {
  const e = entry({ kind: "authorization", prompt: "Sign in to continue", url });
  const answer = vi.fn(async (a: AnswerInput): Promise<Envelope<Answer>> => ok(a));
  const openUrl = vi.fn(async ({ id }: { id: string }) => ok({ opened, url }));
  const open = vi.spyOn(window, "open").mockImplementation(() => null);
  render(UrlCard, { props: { entry: e, answer, openUrl } });
  return { answer, openUrl, open, id: e.request.id, card: screen.getByRole("region", { name: "Authorization request" }) };
}

afterEach(() => vi.restoreAllMocks());

describe("UrlCard", () => {
  it("shows the prompt, the full url and its host, and opens nothing by itself", () => {
    const { card, open, openUrl } = setup("https://auth.example.com/device?code=ABCD");
    expect(card.textContent).toContain("Sign in to continue");
    expect(card.textContent).toContain("https://auth.example.com/device?code=ABCD");
    expect(card.querySelector(".host")?.textContent).toBe("auth.example.com");
    expect(card.querySelectorAll("a")).toHaveLength(0);
    expect(screen.queryByRole("alert")).toBeNull();
    expect(open).not.toHaveBeenCalled();
    expect(openUrl).not.toHaveBeenCalled();
    for (const name of ["Open in browser", "Done", "Decline", "Cancel"]) expect(screen.getByRole("button", { name })).toBeTruthy();
  });

  it("warns on a punycode host, also when the url spells it in Unicode", () => {
    setup("https://xn--pple-43d.com/login");
    expect(screen.getByRole("alert").textContent).toMatch(/punycode/);
    // The look-alike itself (Cyrillic "а") is shown, and Open is no longer the obvious button.
    expect(screen.getByRole("alert").textContent).toContain("displays as “аpple.com”");
    expect(screen.getByRole("button", { name: "Open in browser" }).classList.contains("primary")).toBe(false);
  });

  it("demotes Open on an http address", () => {
    setup("http://example.com/login");
    expect(screen.getByRole("alert").textContent).toMatch(/not https/);
    expect(screen.getByRole("button", { name: "Open in browser" }).classList.contains("primary")).toBe(false);
  });

  it("copies the URL exactly as the server sent it", async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    setup("https://example.com/\u202Egpj.exe");
    await fireEvent.click(screen.getByRole("button", { name: "Copy URL" }));
    expect(writeText).toHaveBeenCalledWith("https://example.com/\u202Egpj.exe");
    expect(await screen.findByText("Copied the URL.")).toBeTruthy();
  });

  it("warns on a Unicode look-alike host", () => {
    setup("https://аpple.com/login"); // Cyrillic "а"
    expect(screen.getByRole("alert").textContent).toMatch(/xn--pple/);
  });

  it("warns when the url is not https", () => {
    setup("http://example.com/callback");
    expect(screen.getByRole("alert").textContent).toMatch(/not https/);
  });

  it("refuses to open what is not a web address", () => {
    setup("javascript:alert(1)");
    expect((screen.getByRole("button", { name: "Open in browser" }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("asks main to open it and opens it itself, noopener, only when main could not", async () => {
    const { openUrl, open, id } = setup("https://example.com/x");
    await fireEvent.click(screen.getByRole("button", { name: "Open in browser" }));
    expect(openUrl).toHaveBeenCalledWith({ id });
    expect(open).toHaveBeenCalledWith("https://example.com/x", "_blank", "noopener,noreferrer");
  });

  it("leaves opening to main in Electron", async () => {
    const { open } = setup("https://example.com/x", true);
    await fireEvent.click(screen.getByRole("button", { name: "Open in browser" }));
    expect(open).not.toHaveBeenCalled();
    expect(screen.getByRole("status").textContent).toMatch(/Opened in your browser/);
  });

  it("answers Done, Decline, Cancel and Escape", async () => {
    const { answer, id, card } = setup("https://example.com/x");
    await fireEvent.click(screen.getByRole("button", { name: "Done" }));
    expect(answer).toHaveBeenLastCalledWith({ id, ok: true });
    await fireEvent.click(screen.getByRole("button", { name: "Decline" }));
    expect(answer).toHaveBeenLastCalledWith({ id, ok: false, reason: "declined" });
    await fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(answer).toHaveBeenLastCalledWith({ id, ok: false, reason: "cancelled" });
    await fireEvent.keyDown(card, { key: "Escape" });
    expect(answer).toHaveBeenCalledTimes(4);
  });
});

describe("UrlCard with hidden characters", () => {
  it("warns on direction controls, shows them escaped, and demotes Open", () => {
    const { card } = setup("https://example.com/\u202Egpj.exe");
    expect(screen.getByRole("alert").textContent).toMatch(/this URL contains invisible direction-changing characters \(U\+202E\)/i);
    expect(card.querySelector(".full-url")?.textContent).toBe("https://example.com/⟨U+202E⟩gpj.exe");
    expect(card.textContent).not.toContain("\u202E");
    const open = screen.getByRole("button", { name: "Open in browser" });
    expect(open.classList.contains("primary")).toBe(false);
    expect(open.classList.contains("demoted")).toBe(true);
  });

  it("warns on other invisible characters too, naming them", () => {
    const { card } = setup("https://example.com/\u200Bpay/\u2066x");
    expect(screen.getByRole("alert").textContent).toMatch(/direction-changing characters \(U\+200B, U\+2066\)/);
    expect(card.querySelector(".full-url")?.textContent).toBe("https://example.com/⟨U+200B⟩pay/⟨U+2066⟩x");
  });

  it("names invisible characters that are not direction controls as such", () => {
    setup("https://example.com/a\u00ADb");
    expect(screen.getByRole("alert").textContent).toMatch(/contains invisible characters \(U\+00AD\)/);
    expect(screen.getByRole("button", { name: "Open in browser" }).classList.contains("primary")).toBe(false);
  });

  it("keeps Open primary for an ordinary URL", () => {
    setup("https://example.com/x");
    expect(screen.getByRole("button", { name: "Open in browser" }).classList.contains("primary")).toBe(true);
  });
});
