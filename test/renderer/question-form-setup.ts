// The set-up the QuestionForm tests share: the form for one schema, with main's answer and checks
// as mocks, and its Accept button.
import { expect, vi } from "vitest";
import { render, screen, waitFor } from "@testing-library/svelte";
import QuestionForm from "../../src/renderer/components/QuestionForm.svelte";
import { checkFor, formEntry, ok } from "./fake-api";
import type { AnswerInput, Envelope, FormCheck } from "../../src/shared/contract";
import type { Answer } from "../../src/shared/types";

export function setup(
  schema: unknown,
  answer = vi.fn(async (a: AnswerInput): Promise<Envelope<Answer>> => ok(a)),
  check: (arg: { id: string; data: Record<string, unknown> }) => Promise<Envelope<FormCheck>> = checkFor(schema),
) {
  const e = formEntry(schema);
  const result = render(QuestionForm, { props: { entry: e, answer, check } });
  return { ...result, answer, check, id: e.request.id, form: screen.getByRole("form", { name: "Question" }) };
}

export const accept = () => screen.getByRole("button", { name: "Accept" }) as HTMLButtonElement;
/** Main answers asynchronously: Accept follows its latest verdict. */
export const acceptEnabled = (enabled: boolean) => waitFor(() => expect(accept().disabled).toBe(!enabled));
