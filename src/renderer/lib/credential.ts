// Which form fields to mask while typed: a field whose key or title names a credential, or whose
// schema says `format: "password"`. Masking is a courtesy against shoulder-surfing; the warning
// that servers should not ask for credentials in a form stays (DESIGN.md §1, trust boundary).

const CREDENTIAL_WORDS = /\b(?:pass(?:word|wd|phrase|code)?|secret|token|api ?key|pin|otp|totp)\b/i;

/** "apiKey", "api_key", "API-Key" and "ApiKey" all read as "api key"; "spinner" stays one word. */
function words(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.]+/g, " ")
    .toLowerCase();
}

export function isCredentialField(key: string, title: string | undefined, schema: Record<string, unknown> | undefined): boolean {
  if (schema?.format === "password" || schema?.writeOnly === true) return true;
  return [key, title ?? ""].some((text) => CREDENTIAL_WORDS.test(words(text)));
}
