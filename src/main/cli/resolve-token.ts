// Where the CLI finds the gateway token: the environment first (explicit wins), then the keychain
// the app wrote it to. Never generates one: only the app decides the token.
import { GATEWAY_TOKEN_SECRET, openSecretStore } from "../secrets";

export async function resolveToken(): Promise<{ token?: string; why: string }> {
  const fromEnv = process.env.TOOLNEXUS_COMPANION_TOKEN;
  if (fromEnv) return { token: fromEnv, why: "TOOLNEXUS_COMPANION_TOKEN" };
  const store = await openSecretStore({ probeTimeoutMs: 3_000 });
  if (!store.available) {
    return { why: `TOOLNEXUS_COMPANION_TOKEN is not set and ${store.detail}` };
  }
  const token = await store.get(GATEWAY_TOKEN_SECRET);
  if (token) return { token, why: "the keychain" };
  return { why: "TOOLNEXUS_COMPANION_TOKEN is not set and the keychain holds no gateway token yet (start the companion once)" };
}

export function companionUrl(): string {
  return process.env.TOOLNEXUS_COMPANION_URL ?? "http://127.0.0.1:7315";
}
