// The gateway's bearer token: made once, kept in the secret store, rotatable from settings.
// Without a system keychain (headless boxes, SSH: where browser mode is for) the token goes to a
// file only this user can read in the companion's state folder, so agents configured once keep
// working after a restart. Other secrets stay in memory there: only the token must outlive a run.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { createPrivateFile, readPrivateFile, replacePrivateFile } from "../base/private-file";
import { stateDir } from "../base/state-dir";
import type { SecretStore, TokenFile } from "./types";

export const GATEWAY_TOKEN_SECRET = "gateway-token";

/** What a token we wrote looks like; anything else in the file is not ours to send as a bearer. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{32,256}$/;

function newToken(): string {
  // 32 random bytes, URL-safe so it pastes cleanly into headers and JSON configs.
  return randomBytes(32).toString("base64url");
}

/** Where the token file lives: `<state folder>/gateway-token`. */
export function gatewayTokenFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), GATEWAY_TOKEN_SECRET);
}

/**
 * The token in `path`, or undefined when there is no file yet. Throws, with the chmod or rm that
 * fixes it, for a file another user owns or can read, a link, or content that is not a token.
 * The one reader: the companion, `toolnexus-companion token`, the `connect` shim and the hook.
 */
export function readGatewayTokenFile(path: string): string | undefined {
  const text = readPrivateFile(path, 4096);
  if (text === undefined) return undefined;
  const token = text.trim();
  if (!TOKEN_SHAPE.test(token)) throw new Error(`${path} does not hold a gateway token; remove it (rm ${path}) and start the companion again`);
  return token;
}

/**
 * `inner` (the session's memory store) with the gateway token kept in `path` instead: the first
 * write creates the file (O_EXCL; a concurrent start's file wins and is read back), a rotation
 * replaces it atomically.
 */
export function tokenFileStore(inner: SecretStore, path: string): SecretStore {
  const place: TokenFile = { path };
  const remember = <T>(run: () => T): T => {
    try {
      const value = run();
      delete place.problem;
      return value;
    } catch (error) {
      place.problem = (error as Error).message;
      throw error;
    }
  };
  return {
    available: inner.available,
    detail: `${inner.detail}; the gateway token is kept in ${path}, readable only by you`,
    tokenFile: place,
    async get(name) {
      if (name !== GATEWAY_TOKEN_SECRET) return inner.get(name);
      return remember(() => readGatewayTokenFile(path));
    },
    async set(name, value) {
      if (name !== GATEWAY_TOKEN_SECRET) return inner.set(name, value);
      remember(() => {
        if (readGatewayTokenFile(path) === undefined && createPrivateFile(path, `${value}\n`)) return;
        replacePrivateFile(path, `${value}\n`);
      });
    },
    delete: (name) => inner.delete(name),
    list: () => inner.list(),
  };
}

/** The current token, generated and stored on first use. */
export async function gatewayToken(store: SecretStore): Promise<string> {
  const existing = await store.get(GATEWAY_TOKEN_SECRET);
  if (existing) return existing;
  const token = newToken();
  if (store.tokenFile) {
    // Two companions starting at once: whoever creates the file first decides the token. Read it
    // back through the store either way, so a registering store learns the value.
    createPrivateFile(store.tokenFile.path, `${token}\n`);
    const kept = await store.get(GATEWAY_TOKEN_SECRET);
    if (kept) return kept;
    throw new Error(`${store.tokenFile.path} exists but holds no token yet; start the companion again`);
  }
  await store.set(GATEWAY_TOKEN_SECRET, token);
  return token;
}

/** Replaces the token; agents configured with the old one are refused from now on. */
export async function rotateGatewayToken(store: SecretStore): Promise<string> {
  const token = newToken();
  await store.set(GATEWAY_TOKEN_SECRET, token);
  return token;
}

/** Where the token lives, for Settings and the Agents view. */
export type TokenPlace = { kind: "keychain" } | { kind: "file"; path: string } | { kind: "session"; why: string };

export function tokenPlace(store: SecretStore): TokenPlace {
  if (store.available) return { kind: "keychain" };
  if (store.tokenFile && !store.tokenFile.problem) return { kind: "file", path: store.tokenFile.path };
  return { kind: "session", why: store.tokenFile?.problem ?? store.detail };
}
