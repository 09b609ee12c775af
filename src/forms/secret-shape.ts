// The one pair of checks for secrets in configuration: whether a name (an env variable, a header,
// a command-line flag, a URL query key) names a secret, and whether a value reads like one
// whatever its name; isSecretPair joins them for an env variable or a header. The scrubber
// registers with them, the import view and the server form mask with them, and import flags
// literal secrets in other apps' entries with them. Form fields have their own rule
// (src/forms/credential.ts), which these build on, so a name is never a credential in one place
// and plain in another.
import { identifierWords, namesCredential } from "./credential";

/**
 * Words that name a secret in configuration beyond the form rule: a bare `KEY`, `AUTH`,
 * `Authorization`, cookies and sessions, `PAT` as a word (not PATH), `PRIVATE`, `--pass`.
 */
const CONFIG_WORDS = new Set(["key", "keys", "auth", "authorization", "bearer", "cookie", "cookies", "session", "pat", "private", "pass", "dsn"]);

/** Names that end in these when run together (`OPENAI_APIKEY`, `MYTOKEN`, `x-api-key`). */
const CONFIG_ENDINGS = ["token", "secret", "password", "passwd", "apikey", "key", "credential", "credentials"];

/** Does `name` (env variable, header, flag without its dashes, query key) name a secret? */
export function isSecretName(name: string): boolean {
  if (namesCredential(name)) return true;
  return identifierWords(name).some((word) => CONFIG_WORDS.has(word) || CONFIG_ENDINGS.some((end) => word.length > end.length && word.endsWith(end)));
}

/** Well-known token prefixes (OpenAI, Stripe, GitHub, GitLab, Slack, AWS, Google) and JWTs. */
const TOKEN_PREFIX = /^(?:sk-|sk_|pk_|rk_|ghp_|gho_|ghs_|ghu_|ghr_|github_pat_|glpat-|xox[abpr]-|AKIA|ASIA|AIza|ya29\.|eyJ[A-Za-z0-9_-]{8,}\.)[A-Za-z0-9_\-.=]{8,}/;

/** Bits per character of the value's own character distribution. */
function shannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  const n = [...value].length;
  for (const count of counts.values()) {
    const p = count / n;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/** A value with a well-known token prefix, or a JWT. */
export function hasTokenPrefix(value: string): boolean {
  return TOKEN_PREFIX.test(value);
}

/**
 * A value that reads like a generated credential whatever its name: a well-known token prefix, or
 * 16+ characters, one token (no whitespace, no path-list or URL punctuation), letters and digits
 * mixed, and close to random (≥ 3.5 bits per character; English words and paths sit lower,
 * base64/hex keys higher). `Bearer <that>` counts too.
 */
export function looksLikeSecretValue(value: string): boolean {
  const bare = value.replace(/^(?:Bearer|Basic|token)\s+/i, "");
  if (hasTokenPrefix(bare)) return true;
  if (bare.length < 16 || /[\s:;,]/.test(bare) || /^[/.~]/.test(bare)) return false;
  if (!/[0-9]/.test(bare) || !/[A-Za-z]/.test(bare)) return false;
  return shannonEntropy(bare) >= 3.5;
}

/** An env variable or a header that holds a secret: its name names one, or its value reads like one. */
export function isSecretPair(name: string, value: string): boolean {
  return isSecretName(name) || looksLikeSecretValue(value);
}
