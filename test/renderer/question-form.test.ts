import { describe, it, expect, vi } from "vitest";
import { screen, fireEvent, within, waitFor } from "@testing-library/svelte";
import { everythingSchema } from "./fixtures/everything-elicitation";
import { ok } from "./fake-api";
import { accept, acceptEnabled, setup } from "./question-form-setup";
import type { Envelope } from "../../src/shared/contract";
import type { Answer } from "../../src/shared/types";

describe("QuestionForm: server-everything's 13-field form", () => {
  it("renders all 13 fields with the input each kind needs", () => {
    setup(everythingSchema);
    expect((screen.getByRole("textbox", { name: "String" }) as HTMLInputElement).type).toBe("text");
    expect(screen.getByRole("checkbox", { name: "Boolean" })).toBeTruthy();
    expect(screen.getByRole("textbox", { name: "String with default" })).toBeTruthy();
    expect((screen.getByRole("textbox", { name: "String with email format" }) as HTMLInputElement).type).toBe("email");
    expect((screen.getByRole("textbox", { name: "String with uri format" }) as HTMLInputElement).type).toBe("url");
    expect((screen.getByLabelText("String with date format") as HTMLInputElement).type).toBe("date");
    const integer = screen.getByRole("spinbutton", { name: "Integer" }) as HTMLInputElement;
    expect([integer.step, integer.min, integer.max]).toEqual(["1", "1", "100"]);
    expect((screen.getByRole("spinbutton", { name: "Number in range 1-1000" }) as HTMLInputElement).step).toBe("any");
    expect(screen.getByRole("combobox", { name: "Untitled Single Select Enum" })).toBeTruthy();
    const instruments = screen.getByRole("group", { name: "Untitled Multiple Select Enum" });
    expect(within(instruments).getAllByRole("checkbox").map((c) => c.nextElementSibling?.textContent)).toEqual([
      "Guitar",
      "Piano",
      "Violin",
      "Drums",
      "Bass",
    ]);
    const heroes = screen.getByRole("combobox", { name: "Titled Single Select Enum" });
    expect(within(heroes).getAllByRole("option").map((o) => o.textContent)).toEqual(["Choose…", "Superman", "Green Lantern", "Wonder Woman"]);
    const fish = screen.getByRole("group", { name: "Titled Multiple Select Enum" });
    expect(within(fish).getByRole("checkbox", { name: "Salmon" })).toBeTruthy();
    const pets = screen.getByRole("combobox", { name: "Legacy Titled Single Select Enum" });
    expect(within(pets).getByRole("option", { name: "Dogs" })).toBeTruthy();

    const form = screen.getByRole("form", { name: "Question" });
    expect(form.querySelectorAll(".field")).toHaveLength(13);
  });

  it("pre-fills the defaults", () => {
    setup(everythingSchema);
    expect((screen.getByRole("textbox", { name: "String with default" }) as HTMLInputElement).value).toBe("It was a dark and stormy night.");
    expect((screen.getByRole("spinbutton", { name: "Integer" }) as HTMLInputElement).value).toBe("42");
    expect((screen.getByRole("spinbutton", { name: "Number in range 1-1000" }) as HTMLInputElement).value).toBe("3.14");
    expect((screen.getByRole("combobox", { name: "Untitled Single Select Enum" }) as HTMLSelectElement).value).toBe("Monica");
    expect((screen.getByRole("combobox", { name: "Titled Single Select Enum" }) as HTMLSelectElement).value).toBe("hero-1");
    expect((screen.getByRole("combobox", { name: "Legacy Titled Single Select Enum" }) as HTMLSelectElement).value).toBe("pet-1");
    expect((screen.getByRole("checkbox", { name: "Guitar" }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole("checkbox", { name: "Piano" }) as HTMLInputElement).checked).toBe(false);
    expect((screen.getByRole("checkbox", { name: "Tuna" }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole("checkbox", { name: "Boolean" }) as HTMLInputElement).checked).toBe(false);
  });

  it("marks required fields and keeps Accept disabled until they are valid", async () => {
    setup(everythingSchema);
    const name = screen.getByRole("textbox", { name: "String" }) as HTMLInputElement;
    expect(name.required).toBe(true);
    expect(name.closest(".field")?.querySelector(".req")?.textContent).toBe("*");
    expect((screen.getByRole("textbox", { name: "String with default" }) as HTMLInputElement).required).toBe(false);
    expect(accept().disabled).toBe(true);
    await fireEvent.input(name, { target: { value: "Ada Lovelace" } });
    // Disabled at once while main checks the new value, enabled by its verdict.
    expect(accept().disabled).toBe(true);
    await acceptEnabled(true);
  });

  it("focuses the first field on open", () => {
    setup(everythingSchema);
    expect(document.activeElement).toBe(screen.getByRole("textbox", { name: "String" }));
  });

  it("shows a message for a bad email and keeps Accept disabled", async () => {
    setup(everythingSchema);
    await fireEvent.input(screen.getByRole("textbox", { name: "String" }), { target: { value: "Ada" } });
    const email = screen.getByRole("textbox", { name: "String with email format" });
    await fireEvent.input(email, { target: { value: "not-an-email" } });
    expect(await screen.findByText("An email address, like name@example.com")).toBeTruthy();
    expect(email.getAttribute("aria-invalid")).toBe("true");
    expect(accept().disabled).toBe(true);
    await fireEvent.input(email, { target: { value: "ada@example.com" } });
    await waitFor(() => expect(screen.queryByText("An email address, like name@example.com")).toBeNull());
    await acceptEnabled(true);
  });

  it("shows a message for an out-of-range number", async () => {
    setup(everythingSchema);
    await fireEvent.input(screen.getByRole("textbox", { name: "String" }), { target: { value: "Ada" } });
    const integer = screen.getByRole("spinbutton", { name: "Integer" });
    await fireEvent.input(integer, { target: { value: "500" } });
    // In plain words from the schema, once: the hint above says the same and gives way.
    expect(await screen.findByText("A whole number from 1 to 100")).toBeTruthy();
    expect(screen.queryByText("From 1 to 100.")).toBeNull();
    expect(accept().disabled).toBe(true);
    await fireEvent.input(integer, { target: { value: "7" } });
    await acceptEnabled(true);
  });

  it("enforces a multi-select's max items; clearing an optional one omits it", async () => {
    const { answer } = setup(everythingSchema);
    await fireEvent.input(screen.getByRole("textbox", { name: "String" }), { target: { value: "Ada" } });
    for (const name of ["Piano", "Violin"]) await fireEvent.click(screen.getByRole("checkbox", { name }));
    await acceptEnabled(true);
    await fireEvent.click(screen.getByRole("checkbox", { name: "Drums" }));
    expect(await screen.findByText("Choose 1 to 3")).toBeTruthy();
    // The other multi-select keeps its hint; this one's message replaces it.
    expect(screen.getAllByText("Choose 1 to 3.")).toHaveLength(1);
    expect(accept().disabled).toBe(true);
    for (const name of ["Guitar", "Piano", "Violin", "Drums"]) await fireEvent.click(screen.getByRole("checkbox", { name }));
    // The field is optional: no choice at all means "not answered", which the schema allows.
    await acceptEnabled(true);
    await fireEvent.click(accept());
    await waitFor(() => expect(answer).toHaveBeenCalledTimes(1));
    expect(answer.mock.calls[0][0].data).not.toHaveProperty("untitledMultipleSelectEnum");
  });

  it("enforces a multi-select's min items", async () => {
    setup({
      type: "object",
      properties: { tags: { type: "array", title: "Tags", minItems: 2, items: { type: "string", enum: ["a", "b", "c"] } } },
      required: ["tags"],
    });
    expect(accept().disabled).toBe(true);
    await fireEvent.click(screen.getByRole("checkbox", { name: "a" }));
    expect(await screen.findByText("Choose at least 2")).toBeTruthy();
    expect(accept().disabled).toBe(true);
    await fireEvent.click(screen.getByRole("checkbox", { name: "c" }));
    await acceptEnabled(true);
  });

  it("sends every value with Accept, in the shapes MCP expects", async () => {
    const { answer, id } = setup(everythingSchema);
    await fireEvent.input(screen.getByRole("textbox", { name: "String" }), { target: { value: "Ada" } });
    await fireEvent.click(screen.getByRole("checkbox", { name: "Boolean" }));
    await fireEvent.input(screen.getByRole("textbox", { name: "String with email format" }), { target: { value: "ada@example.com" } });
    await fireEvent.input(screen.getByRole("textbox", { name: "String with uri format" }), { target: { value: "https://ada.example" } });
    await fireEvent.input(screen.getByLabelText("String with date format"), { target: { value: "1815-12-10" } });
    await fireEvent.change(screen.getByRole("combobox", { name: "Titled Single Select Enum" }), { target: { value: "hero-3" } });
    await fireEvent.click(screen.getByRole("checkbox", { name: "Bass" }));
    await acceptEnabled(true);
    await fireEvent.click(accept());
    await waitFor(() => expect(answer).toHaveBeenCalledTimes(1));
    expect(answer).toHaveBeenCalledWith({
      id,
      ok: true,
      data: {
        name: "Ada",
        check: true,
        firstLine: "It was a dark and stormy night.",
        email: "ada@example.com",
        homepage: "https://ada.example",
        birthdate: "1815-12-10",
        integer: 42,
        number: 3.14,
        untitledSingleSelectEnum: "Monica",
        untitledMultipleSelectEnum: ["Guitar", "Bass"],
        titledSingleSelectEnum: "hero-3",
        titledMultipleSelectEnum: ["fish-1"],
        legacyTitledEnum: "pet-1",
      },
    });
  });

  it("submits on Enter when valid, not before", async () => {
    const { answer, id } = setup(everythingSchema);
    const name = screen.getByRole("textbox", { name: "String" });
    await fireEvent.keyDown(name, { key: "Enter" });
    expect(await screen.findByText("Required")).toBeTruthy();
    expect(answer).not.toHaveBeenCalled();
    // Enter right after typing, before the debounced check: it asks main now and then submits.
    await fireEvent.input(name, { target: { value: "Ada" } });
    await fireEvent.keyDown(name, { key: "Enter" });
    await waitFor(() => expect(answer).toHaveBeenCalledTimes(1));
    expect(answer.mock.calls[0][0]).toMatchObject({ id, ok: true, data: { name: "Ada" } });
  });

  it("cancels on Escape, and Decline / Cancel send their reasons", async () => {
    const { answer, id } = setup(everythingSchema);
    await fireEvent.keyDown(screen.getByRole("textbox", { name: "String" }), { key: "Escape" });
    expect(answer).toHaveBeenLastCalledWith({ id, ok: false, reason: "cancelled" });
    await fireEvent.click(screen.getByRole("button", { name: "Decline" }));
    expect(answer).toHaveBeenLastCalledWith({ id, ok: false, reason: "declined" });
    await fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(answer).toHaveBeenLastCalledWith({ id, ok: false, reason: "cancelled" });
  });

  it("shows main's refusal details from the answer envelope", async () => {
    const answer = vi.fn(async (): Promise<Envelope<Answer>> => ({
      ok: false,
      error: { code: "invalid-answer", message: "invalid", details: ["email: must be a valid email"] },
    }));
    setup({ type: "object", properties: { email: { type: "string" } } }, answer);
    await acceptEnabled(true);
    await fireEvent.click(accept());
    // Main's wording, in plain words under the field's label.
    expect(await screen.findByText("email: An email address, like name@example.com")).toBeTruthy();
  });
});

describe("QuestionForm: single kinds", () => {
  it("renders a date-time field and sends RFC 3339", async () => {
    const { answer } = setup({ type: "object", properties: { when: { type: "string", format: "date-time", title: "When" } }, required: ["when"] });
    const input = screen.getByLabelText("When") as HTMLInputElement;
    expect(input.type).toBe("datetime-local");
    await fireEvent.input(input, { target: { value: "2025-03-01T09:30" } });
    await acceptEnabled(true);
    await fireEvent.click(accept());
    await waitFor(() => expect(answer).toHaveBeenCalledTimes(1));
    const sent = answer.mock.calls[0][0].data?.when as string;
    expect(sent).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(new Date(sent).getTime()).toBe(new Date("2025-03-01T09:30").getTime());
  });

  it("enforces text length bounds", async () => {
    setup({ type: "object", properties: { code: { type: "string", minLength: 3, title: "Code" } } });
    await fireEvent.input(screen.getByRole("textbox", { name: "Code" }), { target: { value: "ab" } });
    expect(await screen.findByText("At least 3 characters")).toBeTruthy();
    expect(screen.queryByText("At least 3 characters.")).toBeNull();
    expect(accept().disabled).toBe(true);
  });

  it("a form with no fields can be accepted at once", async () => {
    const { answer, id } = setup({ type: "object", properties: {} });
    await acceptEnabled(true);
    await fireEvent.click(accept());
    await waitFor(() => expect(answer).toHaveBeenCalledWith({ id, ok: true, data: {} }));
  });
});

describe("QuestionForm: what it cannot show and what it warns about", () => {
  it("explains a nested schema, offers Decline and Cancel, never Accept", async () => {
    const schema = {
      type: "object",
      properties: { address: { type: "object", title: "Address", properties: { street: { type: "string" } } } },
    };
    const { answer, id } = setup(schema);
    expect(screen.getByText("This question cannot be shown as a form here.")).toBeTruthy();
    expect(screen.getByText("Address: a group of fields (street)")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Accept" })).toBeNull();
    expect(screen.getByRole("button", { name: "Cancel" })).toBeTruthy();
    await fireEvent.click(screen.getByRole("button", { name: "Decline" }));
    expect(answer).toHaveBeenCalledWith({ id, ok: false, reason: "declined" });
  });

  it.each([[null], ["text"], [{ type: "array" }], [{ type: "object", properties: { x: { type: "file" } } }]])(
    "does not throw for schema %j",
    (schema) => {
      expect(() => setup(schema)).not.toThrow();
      expect(screen.getByRole("button", { name: "Decline" })).toBeTruthy();
    },
  );

  it("shows the credential banner when a field looks like a secret", () => {
    setup({ type: "object", properties: { apiKey: { type: "string", title: "API key" } } });
    expect(screen.getByRole("alert").textContent).toMatch(/password, key, token or secret/);
  });

  it("shows no credential banner on ordinary forms", () => {
    setup(everythingSchema);
    expect(screen.queryByRole("alert")).toBeNull();
  });
});
