// Settings → "When you are away" in the page: what it sends main on Save (a typed credential once,
// "Forget it" as null, nothing for one left empty), the typed credential gone from the page after,
// and "Send a test" saving first and then showing main's outcome. Main's own checks and the
// services' side are tested in test/integration/reach-*.test.ts.
import { describe, expect, it, vi } from "vitest";
import { fireEvent, render, screen, waitFor, within } from "@testing-library/svelte";
import Channels from "../../src/renderer/components/Channels.svelte";
import { ReachState } from "../../src/renderer/lib/reach.svelte";
import { callOf, fakeReachView, ok } from "./fake-api";
import type { ReachSaveArg, ReachView } from "../../src/shared/reach";

function setup(view: ReachView = fakeReachView) {
  const saves: ReachSaveArg[] = [];
  const tests: string[] = [];
  const save = vi.fn(async (arg: ReachSaveArg) => {
    saves.push(arg);
    const tokenSet = arg.ntfy.token === null ? false : arg.ntfy.token ? true : view.ntfy.tokenSet;
    return ok({ ...view, ntfy: { enabled: arg.ntfy.enabled, url: arg.ntfy.url, tokenSet } });
  });
  const call = callOf({
    "reach:get": async () => ok(view),
    "reach:save": save,
    "reach:test": async ({ channel }: { channel: string }) => (tests.push(channel), ok({ ok: false, message: "ntfy: the test was not sent: 127.0.0.1 answered 403" })),
  });
  render(Channels, { reach: new ReachState(call), headingId: "away" });
  return { saves, tests };
}

describe("When you are away", () => {
  it("saves a typed token once, then shows it as kept and clears the field", async () => {
    const { saves } = setup();
    const group = await screen.findByRole("group", { name: "ntfy" });
    await fireEvent.click(within(group).getByLabelText("Send to ntfy"));
    await fireEvent.input(within(group).getByLabelText("Topic URL"), { target: { value: "https://ntfy.sh/away" } });
    await fireEvent.input(within(group).getByLabelText("Access token (optional)"), { target: { value: "tk_typed" } });
    await fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0].ntfy).toEqual({ enabled: true, url: "https://ntfy.sh/away", token: "tk_typed" });
    // Nothing typed elsewhere: no other credential is sent, so main keeps what it has.
    expect(saves[0].slack).toEqual({ enabled: false });
    expect(saves[0].email).not.toHaveProperty("password");
    await within(group).findByText("Kept in your keychain.");
    expect((within(group).getByLabelText("Access token (optional)") as HTMLInputElement).value).toBe("");
    await fireEvent.click(within(group).getByLabelText("Forget it"));
    await fireEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(saves).toHaveLength(2));
    expect(saves[1].ntfy.token).toBeNull();
  });

  it("saves before a test and shows main's outcome", async () => {
    const { saves, tests } = setup({ ...fakeReachView, ntfy: { enabled: true, url: "https://ntfy.sh/away", tokenSet: false } });
    const group = await screen.findByRole("group", { name: "ntfy" });
    await fireEvent.click(within(group).getByRole("button", { name: "Send a test" }));
    await waitFor(() => expect(within(group).getByRole("status", { name: "ntfy test" }).textContent).toBe("ntfy: the test was not sent: 127.0.0.1 answered 403"));
    expect(saves).toHaveLength(1);
    expect(tests).toEqual(["ntfy"]);
  });
});
