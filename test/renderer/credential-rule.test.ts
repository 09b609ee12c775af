// The one credential rule (src/forms/credential.ts), asked of every place that must agree: the
// form's warning, the on-screen mask (rendered in jsdom), history's mask, rules ("never keep a
// credential") and the import view (a flag in another app's command line). Every spelling of
// every credential is a credential in all five; the look-alikes are one in none.
import { describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/svelte";
import FormField from "../../src/renderer/components/FormField.svelte";
import { fieldsFromSchema, looksLikeCredential } from "../../src/forms/fields";
import { maskAnswer, MASK } from "../../src/main/history/mask";
import { makeRule } from "../../src/main/rules/make";
import { redactArgs, MASK as VIEW_MASK } from "../../src/main/secrets/redact-view";
import type { PendingEntry } from "../../src/shared/types";

const CREDENTIALS = [
  "passcode", "Passcode", "pin", "PIN", "pinCode", "otp", "otp_code", "OTP", "totp", "TOTP", "2fa", "2FA code", "mfa", "mfaCode",
  "private key", "privateKey", "private_key", "private-key", "PRIVATE_KEY", "PrivateKey",
  "secret", "clientSecret", "client_secret", "token", "accessToken", "access_token", "GITHUB_TOKEN", "authToken",
  "password", "Password", "passwd", "pwd", "PWD", "newPassword", "password_confirm",
  "api key", "apiKey", "api_key", "API-KEY", "APIKey", "ApiKey", "apikey", "Api Key", "x-api-key",
];
const NOT_CREDENTIALS = ["spinner", "tokenizer", "opinion", "pinned", "max_tokens", "maxTokens", "tokenCount", "passwordLength", "name", "email", "compass", "secretary", "keyboard"];

const schemaFor = (key: string) => ({ type: "object", properties: { [key]: { type: "string" } } });

function formWarning(key: string): boolean {
  const plan = fieldsFromSchema(schemaFor(key));
  if (!plan.ok) throw new Error(plan.problems.join("; "));
  return looksLikeCredential(plan.fields[0]);
}

function screenMask(key: string): boolean {
  const plan = fieldsFromSchema(schemaFor(key));
  if (!plan.ok) throw new Error(plan.problems.join("; "));
  render(FormField, { props: { field: plan.fields[0], value: "4711", schema: schemaFor(key) } });
  const input = screen.getByLabelText(key, { exact: false, selector: "input" }) as HTMLInputElement;
  const masked = input.type === "password";
  cleanup();
  return masked;
}

function historyMask(key: string): boolean {
  const schema = schemaFor(key);
  const byForm = maskAnswer({ [key]: "4711" }, schema)[key] === MASK;
  // An agent's free-form answer (no schema) is judged by its keys alone, by the same rule.
  const byKey = maskAnswer({ [key]: "4711" })[key] === MASK;
  expect(byKey).toBe(byForm);
  return byForm;
}

function ruleRefuses(key: string): boolean {
  const entry: PendingEntry = { request: { id: "q", kind: "input", prompt: "?", data: { schema: schemaFor(key) } }, source: { server: "s", tool: "t" }, receivedAt: 0 };
  const made = makeRule(entry, { action: "accept", data: { [key]: "4711" }, scope: "always" }, { now: 1, id: "r" });
  return !made.ok && /credential/.test(made.reason);
}

function importViewMasks(key: string): boolean {
  return redactArgs([`--${key}=4711`])[0] === `--${key}=${VIEW_MASK}`;
}

const PLACES: Record<string, (key: string) => boolean> = {
  "form warning": formWarning,
  "screen mask": screenMask,
  "history mask": historyMask,
  rules: ruleRefuses,
  "import view": importViewMasks,
};

describe("one credential rule in five places", () => {
  it("every spelling of every credential is one everywhere, and no look-alike is", () => {
    const table = (keys: string[]) => keys.map((key) => [key, ...Object.values(PLACES).map((place) => place(key))]);
    expect(table(CREDENTIALS)).toEqual(CREDENTIALS.map((key) => [key, true, true, true, true, true]));
    expect(table(NOT_CREDENTIALS)).toEqual(NOT_CREDENTIALS.map((key) => [key, false, false, false, false, false]));
  });

  it("history keeps no passcode or TOTP in clear, and masks privateKey on screen", () => {
    expect(maskAnswer({ passcode: "4711", totp: "123456", city: "Bonn" })).toEqual({ passcode: MASK, totp: MASK, city: "Bonn" });
    expect(screenMask("privateKey")).toBe(true);
  });

  it("a title, a description or format: password make a field a credential in every place that sees them", () => {
    const schema = { type: "object", properties: { value: { type: "string", title: "Code", description: "The 6-digit TOTP from your app" } } };
    const plan = fieldsFromSchema(schema);
    expect(plan.ok && looksLikeCredential(plan.fields[0])).toBe(true);
    expect(maskAnswer({ value: "123456" }, schema)).toEqual({ value: MASK });
    const hidden = { type: "object", properties: { value: { type: "string", format: "password" } } };
    expect(maskAnswer({ value: "x" }, hidden)).toEqual({ value: MASK });
  });
});
