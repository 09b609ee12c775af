// The gateway's bearer token: made once, kept in the secret store, rotatable from settings.
import { randomBytes } from "node:crypto";
import type { SecretStore } from "./types";

export const GATEWAY_TOKEN_SECRET = "gateway-token";

function newToken(): string {
  // 32 random bytes, URL-safe so it pastes cleanly into headers and JSON configs.
  return randomBytes(32).toString("base64url");
}

/** The current token, generated and stored on first use. */
export async function gatewayToken(store: SecretStore): Promise<string> {
  const existing = await store.get(GATEWAY_TOKEN_SECRET);
  if (existing) return existing;
  const token = newToken();
  await store.set(GATEWAY_TOKEN_SECRET, token);
  return token;
}

/** Replaces the token; agents configured with the old one are refused from now on. */
export async function rotateGatewayToken(store: SecretStore): Promise<string> {
  const token = newToken();
  await store.set(GATEWAY_TOKEN_SECRET, token);
  return token;
}
