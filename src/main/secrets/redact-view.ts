// The import list shows each found server's command line or URL to the page, and the page never
// sees a secret. Other clients' files often carry tokens inline (`--api-key=sk-…`,
// `?token=…` in a URL); those parts are shown masked. Env and headers are never shown at all.
// The config written by import keeps the real values: this is only what the page is told.

import { hasTokenPrefix, isSecretName } from "../../forms/secret-shape";

export const MASK = "•••";

/** `Bearer <token>` written into an argument. */
const BEARER = /\b(Bearer|Basic)\s+\S+/gi;

function keyIsSecret(key: string): boolean {
  return isSecretName(key.replace(/^-+/, ""));
}

/** ASCII stand-in while the URL serialises (it would percent-encode the mask). */
const HOLD = "REDACTEDxVALUE";

function maskUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return text;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return text;
  let changed = false;
  if (url.password) {
    url.password = HOLD;
    changed = true;
  }
  for (const key of [...url.searchParams.keys()]) {
    if (keyIsSecret(key) || hasTokenPrefix(url.searchParams.get(key) ?? "")) {
      url.searchParams.set(key, HOLD);
      changed = true;
    }
  }
  // Not decodeURI: it throws on a malformed escape elsewhere in the URL.
  return changed ? url.href.split(HOLD).join(MASK) : text;
}

/** One value (an argument, an env value) as the page may see it: token-shaped values, URL secrets and `Bearer x` masked. */
export function redactValue(value: string): string {
  if (hasTokenPrefix(value)) return MASK;
  return maskUrl(value).replace(BEARER, (_m, scheme: string) => `${scheme} ${MASK}`);
}

/** The arguments as the page may see them: a secret flag's value, token-shaped values and URL secrets masked. */
export function redactArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.indexOf("=");
    if (arg.startsWith("-") && eq > 0 && keyIsSecret(arg.slice(0, eq))) {
      out.push(`${arg.slice(0, eq)}=${MASK}`);
      continue;
    }
    if (/^[A-Z][A-Z0-9_]*=/.test(arg) && keyIsSecret(arg.slice(0, eq))) {
      // `KEY=value` handed to `env` or `docker -e`.
      out.push(`${arg.slice(0, eq)}=${MASK}`);
      continue;
    }
    out.push(redactValue(arg));
    if (arg.startsWith("-") && eq < 0 && keyIsSecret(arg) && i + 1 < args.length && !args[i + 1].startsWith("-")) {
      out.push(MASK);
      i++;
    }
  }
  return out;
}

export function redactUrl(url: string): string {
  return maskUrl(url);
}
