// Opens the keychain-backed store, or says clearly why it cannot and falls back to memory.
// Never to a file for secrets the person set: a plaintext secrets file is worse than asking again
// next session. The one exception is the gateway token (gateway-token.ts): agents configured with
// it must keep working after a restart, so it goes to a file only this user can read.
import { keychainProcess, type HelperLauncher } from "./keychain-process";
import { createKeytarStore, type KeytarLike } from "./keytar-store";
import { gatewayTokenFile, tokenFileStore } from "./gateway-token";
import { createMemoryStore } from "./memory-store";
import { SECRET_SERVICE, type SecretStore } from "./types";
import { errorMessage } from "../../shared/unknown-value";

export interface OpenOptions {
  service?: string;
  /** How long the keychain may take to answer the probe (a locked keyring can sit on a prompt). */
  probeTimeoutMs?: number;
  /** How to start the keychain helper (keychain-process.ts); the desktop passes Electron's. */
  launch?: HelperLauncher;
  /** For tests: a keytar stand-in, or a loader that throws like a missing native module. */
  loadKeytar?: () => Promise<KeytarLike>;
  /** Where the gateway token goes without a keychain; gatewayTokenFile() (the state folder) by default. */
  tokenFile?: string;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the keychain did not answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

export async function openSecretStore(options: OpenOptions = {}): Promise<SecretStore> {
  const service = options.service ?? SECRET_SERVICE;
  // keytar runs in a helper process, never in ours: its native code can crash or stall.
  let keytar: (KeytarLike & { close?(): void }) | undefined;
  try {
    keytar = options.loadKeytar ? await options.loadKeytar() : keychainProcess(options.launch ? { launch: options.launch } : {});
    // A read proves the backend answers (D-Bus reachable, Secret Service present, unlocked).
    await withTimeout(keytar.findCredentials(service), options.probeTimeoutMs ?? 5_000);
    return createKeytarStore(keytar, service);
  } catch (error) {
    keytar?.close?.();
    const why = errorMessage(error);
    const memory = createMemoryStore(
      `no system keychain is available (${why}); secrets are kept in memory for this session only and must be set again after a restart` +
        (process.platform === "linux" ? " — install and unlock a Secret Service such as gnome-keyring" : ""),
    );
    return tokenFileStore(memory, options.tokenFile ?? gatewayTokenFile());
  }
}
