// `toolnexus-companion secret set|delete|list`: manage the secrets remote servers' headers
// reference as ${secret:NAME}. Values come from stdin so they stay out of shell history and `ps`.
import { checkSecretName, GATEWAY_TOKEN_SECRET, openSecretStore } from "../secrets";
import { isOAuthSecret } from "../auth/keys";
import { isReachSecret } from "../reach/secret-names";
import { complainer, errText, field, out } from "./print";

export const SECRET_USAGE = "Usage: toolnexus-companion secret set NAME   (value from stdin)\n       toolnexus-companion secret delete NAME\n       toolnexus-companion secret list\n";

const fail = complainer();

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  // One trailing newline is what `echo` and a terminal add; it is not part of the secret.
  return Buffer.concat(chunks).toString("utf8").replace(/\r?\n$/, "");
}

export async function runSecret(args: string[]): Promise<number> {
  const [action, name, ...extra] = args;
  const needsName = action === "set" || action === "delete";
  if (!action || (needsName && !name) || (!needsName && action !== "list") || extra.length > 0 || (action === "list" && name)) {
    errText(SECRET_USAGE);
    return 2;
  }
  if (needsName) {
    try {
      checkSecretName(name);
    } catch (error) {
      fail(`${(error as Error).message}`);
      return 2;
    }
    if (name === GATEWAY_TOKEN_SECRET) {
      fail(`"${name}" is the gateway token; rotate it from the companion's settings.`);
      return 2;
    }
  }

  const store = await openSecretStore();
  if (!store.available) {
    // The CLI is a separate process: an in-memory store would forget the secret on exit.
    fail(`cannot store secrets: ${store.detail}.`);
    return 1;
  }

  if (action === "list") {
    const names = (await store.list()).filter((n) => n !== GATEWAY_TOKEN_SECRET && !isOAuthSecret(n) && !isReachSecret(n));
    if (names.length > 0) out(names.map(field).join("\n"));
    return 0;
  }
  if (action === "delete") {
    const removed = await store.delete(name);
    errText(removed ? `Deleted secret "${name}".\n` : `No secret named "${name}".\n`);
    return removed ? 0 : 1;
  }
  if (process.stdin.isTTY) errText(`Type the value for "${name}", then press Ctrl-D:\n`);
  const value = await readStdin();
  if (value === "") {
    fail("the value is empty; nothing stored.");
    return 1;
  }
  await store.set(name, value);
  errText(`Stored secret "${name}" in the system keychain.\n`);
  return 0;
}
