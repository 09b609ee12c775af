// The fallback when no keychain answers: secrets held for this session only, never on disk.
import { checkSecretName, type SecretStore } from "./types";

export function createMemoryStore(detail: string): SecretStore {
  const values = new Map<string, string>();
  return {
    available: false,
    detail,
    async get(name) {
      return values.get(name);
    },
    async set(name, value) {
      checkSecretName(name);
      values.set(name, value);
    },
    async delete(name) {
      return values.delete(name);
    },
    async list() {
      return [...values.keys()].sort();
    },
  };
}
