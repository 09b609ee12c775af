// SecretStore over the OS keychain (Secret Service on Linux, Keychain on macOS, Credential Vault
// on Windows) through keytar, every entry under one service name.
import { checkSecretName, SECRET_SERVICE, type SecretStore } from "./types";

/** The slice of keytar we use; injectable so the probe can be exercised with a broken backend. */
export interface KeytarLike {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>;
}

export function createKeytarStore(keytar: KeytarLike, service = SECRET_SERVICE): SecretStore {
  return {
    available: true,
    detail: `secrets are kept in the system keychain (service "${service}")`,
    async get(name) {
      return (await keytar.getPassword(service, name)) ?? undefined;
    },
    async set(name, value) {
      checkSecretName(name);
      await keytar.setPassword(service, name, value);
    },
    async delete(name) {
      return keytar.deletePassword(service, name);
    },
    async list() {
      // findCredentials returns values too; drop them here so they go no further.
      return (await keytar.findCredentials(service)).map((c) => c.account).sort();
    },
  };
}
