// Where the CLI finds the gateway token: the environment first (explicit wins), then where the app
// keeps it — the keychain, or without one the private token file (secrets/gateway-token.ts).
// Never generates one: only the app decides the token.
import { GATEWAY_TOKEN_SECRET, gatewayTokenFile, openSecretStore, readGatewayTokenFile } from "../secrets";

export async function resolveToken(): Promise<{ token?: string; why: string }> {
  const fromEnv = process.env.TOOLNEXUS_COMPANION_TOKEN;
  if (fromEnv) return { token: fromEnv, why: "TOOLNEXUS_COMPANION_TOKEN" };
  const store = await openSecretStore({ probeTimeoutMs: 3_000 });
  const file = store.tokenFile?.path ?? gatewayTokenFile();
  try {
    const token = await store.get(GATEWAY_TOKEN_SECRET);
    if (token) return { token, why: store.available ? "the keychain" : file };
    // A companion that ran where the keychain was out of reach (over SSH) kept it in the file.
    const fromFile = store.available ? readGatewayTokenFile(file) : undefined;
    if (fromFile) return { token: fromFile, why: file };
  } catch (error) {
    return { why: `TOOLNEXUS_COMPANION_TOKEN is not set and ${(error as Error).message}` };
  }
  const where = store.available ? `the keychain holds no gateway token and there is no ${file}` : `there is no system keychain and no ${file}`;
  return { why: `TOOLNEXUS_COMPANION_TOKEN is not set and ${where} yet (start the companion once)` };
}

export function companionUrl(): string {
  return process.env.TOOLNEXUS_COMPANION_URL ?? "http://127.0.0.1:7315";
}
