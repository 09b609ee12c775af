// The one credential rule: whether a form field asks for a credential, judged from its key, title,
// description and format. The form's warning (servers must ask for secrets through a URL the
// person opens, not a form), the on-screen mask, history's mask, rules ("never keep a credential")
// and the import view all ask here, so a field masked on screen is never kept in clear elsewhere.
//
// Matching is by words, whatever the spelling: `apiKey`, `api_key`, `API-KEY`, `Api Key` and
// `APIKey` all read as "api key". Short words (`pin`, `otp`, `pwd`, `2fa`) count only whole, so
// "opinion", "spinner" and "pinned" are not credentials; `tokenizer` is a different word, and
// plural "tokens" is a count (max_tokens). A credential word followed by a word about it
// ("password length", "token count", "secret name") names a property of a credential, not one.
import { asPlainObject } from "../shared/unknown-value";

/** Words that are a credential on their own. */
const WORDS = new Set([
  "password", "passwords", "passwd", "pwd", "passcode", "passphrase",
  "pin", "otp", "totp", "hotp", "2fa", "mfa", "twofactor",
  "secret", "secrets", "token", "credential", "credentials",
  "apikey", "privatekey", "accesskey", "secretkey", "clientsecret",
]);

/**
 * Short words that are a credential as a field's key or title but too common in a sentence to
 * count in a description ("do not give us your phone number, pin, …" describes a number field).
 */
const NOT_IN_PROSE = new Set(["pin", "otp", "hotp", "pwd", "mfa", "2fa", "pass"]);

/** Endings that make a run-together word a credential (`authtoken`, `clientsecret`, `mypassword`). */
const ENDINGS = ["token", "password", "passwd", "passcode", "passphrase", "secret", "apikey", "privatekey"];

/** A following word that makes the phrase about a credential rather than the credential itself. */
const ABOUT = new Set([
  "count", "counts", "limit", "limits", "budget", "usage", "length", "type", "name", "names",
  "policy", "hint", "strength", "expiry", "expires", "expiration", "format", "required", "enabled", "url",
]);

/** The words of an identifier or a sentence, lower case: camelCase, snake, kebab, dots, spaces. */
export function identifierWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function isCredentialWord(word: string, prose: boolean): boolean {
  if (WORDS.has(word)) return !(prose && NOT_IN_PROSE.has(word));
  return word.length > 4 && ENDINGS.some((end) => word.length > end.length && word.endsWith(end));
}

/**
 * Whether a name names a credential ("API key", "otp_code", "PIN"); with `prose`, whether a
 * sentence (a description) does, where only the unambiguous words count.
 */
export function namesCredential(text: string, prose = false): boolean {
  const words = identifierWords(text);
  for (let i = 0; i < words.length; i++) {
    const next = words[i + 1];
    // "api key" and "private key" are two words; run together they are one of WORDS.
    const pair = next !== undefined ? words[i] + next : "";
    if (pair && WORDS.has(pair) && !(words[i + 2] !== undefined && ABOUT.has(words[i + 2]))) return true;
    if (isCredentialWord(words[i], prose) && !(next !== undefined && ABOUT.has(next))) return true;
  }
  return false;
}

export interface CredentialProbe {
  key: string;
  title?: string;
  description?: string;
  format?: string;
  /** JSON Schema `writeOnly`: the server says the value must not be shown back. */
  writeOnly?: boolean;
}

/** THE rule: does this field ask for a credential? */
export function isCredential(field: CredentialProbe): boolean {
  if (field.format === "password" || field.writeOnly === true) return true;
  if ([field.key, field.title].some((text) => typeof text === "string" && namesCredential(text))) return true;
  return typeof field.description === "string" && namesCredential(field.description, true);
}

/** The same rule for a form's key and its JSON Schema property, however malformed the property is. */
export function isCredentialProperty(key: string, property: unknown): boolean {
  const p = asPlainObject(property);
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  return isCredential({ key, title: text(p.title), description: text(p.description), format: text(p.format), writeOnly: p.writeOnly === true });
}
