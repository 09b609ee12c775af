// QuestionForm and main's verdicts (forms:check): main owns the validator, so every verdict is a
// round trip; these are about their order, their timing, and what the form shows meanwhile.
import { describe, it, expect, vi } from "vitest";
import { screen, fireEvent, waitFor } from "@testing-library/svelte";
import { checkFor, ok, verdict } from "./fake-api";
import type { Envelope, FormCheck } from "../../src/shared/contract";
import { accept, acceptEnabled, setup } from "./question-form-setup";

describe("QuestionForm: main's verdicts", () => {
  /** A forms:check whose replies the test releases one by one, in any order. */
  function deferredCheck(schema: unknown) {
    const calls: { data: Record<string, unknown>; release: () => void }[] = [];
    const check = vi.fn(
      ({ data }: { id: string; data: Record<string, unknown> }) =>
        new Promise<Envelope<FormCheck>>((resolve) => {
          calls.push({ data, release: () => resolve(ok(verdict(schema, data))) });
        }),
    );
    return { check, calls };
  }

  it("checks once as the question opens, and pre-filled defaults may already be valid", async () => {
    const schema = { type: "object", properties: { name: { type: "string", title: "Name", default: "Ada" } }, required: ["name"] };
    const { check, id } = setup(schema);
    expect(check).toHaveBeenCalledTimes(1);
    expect(check).toHaveBeenCalledWith({ id, data: { name: "Ada" } });
    await acceptEnabled(true);
  });

  it("focuses the first field at once; a pending check does not hold the form back", () => {
    const schema = { type: "object", properties: { name: { type: "string", title: "Name" } } };
    const never = vi.fn(() => new Promise<Envelope<FormCheck>>(() => {}));
    setup(schema, undefined, never);
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "Name" }));
    expect(accept().disabled).toBe(true);
  });

  it("the latest request wins: a slow reply for older values never overwrites a newer one", async () => {
    const schema = { type: "object", properties: { email: { type: "string", format: "email", title: "Email" } }, required: ["email"] };
    const { check, calls } = deferredCheck(schema);
    setup(schema, undefined, check);
    const email = screen.getByRole("textbox", { name: "Email" });
    await fireEvent.input(email, { target: { value: "not-an-email" } });
    await waitFor(() => expect(calls).toHaveLength(2));
    await fireEvent.input(email, { target: { value: "ada@example.com" } });
    await waitFor(() => expect(calls).toHaveLength(3));
    expect(calls.map((c) => c.data.email)).toEqual([undefined, "not-an-email", "ada@example.com"]);
    calls[2].release();
    await acceptEnabled(true);
    // The stale verdicts arrive late and are ignored.
    calls[1].release();
    calls[0].release();
    await new Promise((r) => setTimeout(r, 20));
    expect(accept().disabled).toBe(false);
    expect(screen.queryByText("An email address, like name@example.com")).toBeNull();
  });

  it("Accept stays disabled while the newest values are unchecked, even if older ones were valid", async () => {
    const schema = { type: "object", properties: { name: { type: "string", title: "Name", default: "Ada" } }, required: ["name"] };
    const { check, calls } = deferredCheck(schema);
    setup(schema, undefined, check);
    calls[0].release();
    await acceptEnabled(true);
    await fireEvent.input(screen.getByRole("textbox", { name: "Name" }), { target: { value: "" } });
    expect(accept().disabled).toBe(true);
    await waitFor(() => expect(calls).toHaveLength(2));
    calls[1].release();
    expect(await screen.findByText("Required")).toBeTruthy();
    expect(accept().disabled).toBe(true);
  });

  it("a field edited after its message hides the stale message while main checks again", async () => {
    const schema = { type: "object", properties: { name: { type: "string", title: "Name" } }, required: ["name"] };
    const { check, calls } = deferredCheck(schema);
    setup(schema, undefined, check);
    const name = screen.getByRole("textbox", { name: "Name" });
    await fireEvent.input(name, { target: { value: "x" } });
    await fireEvent.input(name, { target: { value: "" } });
    await fireEvent.blur(name);
    await waitFor(() => expect(calls.length).toBeGreaterThanOrEqual(2));
    calls.at(-1)!.release();
    expect(await screen.findByText("Required")).toBeTruthy();
    await fireEvent.input(name, { target: { value: "Ada" } });
    // The reply for "Ada" is still out: the old "is required" must not stand beside "Ada".
    expect(screen.queryByText("Required")).toBeNull();
    expect(accept().disabled).toBe(true);
    await waitFor(() => expect(calls.at(-1)!.data.name).toBe("Ada"));
    calls.at(-1)!.release();
    await acceptEnabled(true);
  });

  it("leaving an empty required field the person never typed in flags nothing (it had the focus on opening)", async () => {
    const schema = { type: "object", properties: { name: { type: "string", title: "Name" } }, required: ["name"] };
    setup(schema);
    const name = screen.getByRole("textbox", { name: "Name" });
    name.focus();
    await fireEvent.focusOut(name);
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByText("Required")).toBeNull();
    expect(accept().disabled).toBe(true);
  });

  it("shows errors that belong to no field of the form", async () => {
    // `hidden` is required but not a property the form can show: the person must learn why.
    const schema = { type: "object", properties: { name: { type: "string", title: "Name" } }, required: ["hidden"] };
    setup(schema);
    const problems = await screen.findByRole("list", { name: "Problems with this form" });
    expect(problems.textContent).toContain("hidden: is required");
    expect(accept().disabled).toBe(true);
  });

  it("shows form-level errors main reports under the empty key", async () => {
    const schema = { type: "object", properties: { name: { type: "string", title: "Name" } } };
    const check = vi.fn(async () => ok<FormCheck>({ ok: false, errors: ["the form schema cannot be checked: bad"], fieldErrors: { "": ["the form schema cannot be checked: bad"] } }));
    setup(schema, undefined, check);
    const problems = await screen.findByRole("list", { name: "Problems with this form" });
    expect(problems.textContent).toBe("the form schema cannot be checked: bad");
  });

  it("says so when main cannot be asked, keeps Accept disabled and Enter does nothing", async () => {
    const schema = { type: "object", properties: { name: { type: "string", title: "Name" } } };
    const check = vi.fn(async (): Promise<Envelope<FormCheck>> => ({ ok: false, error: { code: "unknown-id", message: "no such question" } }));
    const { answer } = setup(schema, undefined, check);
    expect(await screen.findByText(/could not be checked: no such question/)).toBeTruthy();
    expect(accept().disabled).toBe(true);
    await fireEvent.keyDown(screen.getByRole("textbox", { name: "Name" }), { key: "Enter" });
    await waitFor(() => expect(check).toHaveBeenCalledTimes(2));
    expect(answer).not.toHaveBeenCalled();
  });

  it("debounces typing: a burst of input sends one check for the final value", async () => {
    const schema = { type: "object", properties: { name: { type: "string", title: "Name" } } };
    const check = checkFor(schema);
    setup(schema, undefined, check);
    const name = screen.getByRole("textbox", { name: "Name" });
    for (const value of ["A", "Ad", "Ada"]) await fireEvent.input(name, { target: { value } });
    await acceptEnabled(true);
    expect(check.mock.calls.map((c) => c[0].data)).toEqual([{}, { name: "Ada" }]);
  });
});
