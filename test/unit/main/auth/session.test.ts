// The sign-in question: what the person sees, and what their answer (or the callback) does.
import { describe, expect, it } from "vitest";
import { CallbackHub } from "../../../../src/main/auth/callback";
import { AuthSession, SignInDeclined } from "../../../../src/main/auth/session";
import { createMemoryStore } from "../../../../src/main/secrets";
import type { Answer, Request } from "../../../../src/shared/types";
import type { ElicitationContext } from "../../../../src/main/inbox/wait-for";

function session() {
  const hub = new CallbackHub();
  const s = new AuthSession({ name: "linear", url: "https://mcp.example.com/mcp" }, { store: createMemoryStore("t"), hub, redirectUrl: "http://127.0.0.1:1/oauth/callback", clientName: "t" });
  // What the SDK does on a refused request: make a state, hand over the authorization URL.
  const state = s.provider.state();
  void s.provider.redirectToAuthorization(new URL(`https://auth.example.org/authorize?client_id=c&state=${state}`));
  return { s, hub, state };
}

describe("AuthSession.signIn", () => {
  it("asks an authorization question naming the server and the authorization server's host; declined means no redemption", async () => {
    const { s } = session();
    const asked: Request[] = [];
    let finished = false;
    const waitFor = async (request: Request): Promise<Answer> => {
      asked.push(request);
      return { id: request.id, ok: false, reason: "declined" };
    };
    await expect(s.signIn({ waitFor, finish: async () => void (finished = true) })).rejects.toBeInstanceOf(SignInDeclined);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ kind: "authorization", url: expect.stringMatching(/^https:\/\/auth\.example\.org\/authorize/) });
    expect(asked[0].id).toMatch(/^signin-/);
    expect(asked[0].prompt).toContain('"linear"');
    expect(asked[0].prompt).toContain("auth.example.org");
    expect(Object.keys(asked[0]).sort()).toEqual(["id", "kind", "prompt", "url"]);
    expect(finished).toBe(false);
  });

  it("a callback before the answer withdraws the question and redeems the code", async () => {
    const { s, hub, state } = session();
    let ctx: ElicitationContext | undefined;
    const waitFor = (request: Request, c: ElicitationContext) => {
      ctx = c;
      return new Promise<Answer>((resolve) => c.signal.addEventListener("abort", () => resolve({ id: request.id, ok: false, reason: "cancelled" })));
    };
    let redeemed: URLSearchParams | undefined;
    const signingIn = s.signIn({ waitFor, finish: async (p) => void (redeemed = p) });
    await new Promise((r) => setImmediate(r));
    const page = hub.handle(new URLSearchParams(`code=the-code&state=${state}`));
    await signingIn;
    expect(ctx?.server).toBe("linear");
    expect(ctx?.signal.aborted).toBe(true);
    expect(redeemed?.get("code")).toBe("the-code");
    expect((await page).status).toBe(200);
  });

  it("an error callback fails with the error code only, never the server's description", async () => {
    const { s, hub, state } = session();
    const waitFor = async (request: Request): Promise<Answer> => ({ id: request.id, ok: true });
    const signingIn = s.signIn({ waitFor, finish: async () => undefined });
    await new Promise((r) => setImmediate(r));
    const page = hub.handle(new URLSearchParams(`error=access_denied&error_description=${encodeURIComponent("<b>evil</b> go to evil.example")}&state=${state}`));
    await expect(signingIn).rejects.toThrow("the authorization server refused the sign-in (access_denied)");
    const shown = await page;
    expect(shown.status).toBe(400);
    expect(JSON.stringify(shown)).not.toContain("evil");
  });

  it("refuses an authorization URL whose state is not the one this session made", async () => {
    const { s } = session();
    void s.provider.redirectToAuthorization(new URL("https://auth.example.org/authorize?state=someone-elses"));
    const waitFor = async (request: Request): Promise<Answer> => ({ id: request.id, ok: true });
    await expect(s.signIn({ waitFor, finish: async () => undefined })).rejects.toThrow(/state/);
  });
});
