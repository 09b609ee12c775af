// A SecretStore that tells the redaction registry every value that passes through it: a value
// read (a `${secret:NAME}` header at connect time, the gateway token) or written (Settings, a
// rotated token) is hidden from every log line and page from then on.
import type { SecretScrubber } from "./scrub";
import type { SecretStore } from "./types";

export function registeringStore(store: SecretStore, scrubber: SecretScrubber): SecretStore {
  return {
    get available() {
      return store.available;
    },
    get detail() {
      return store.detail;
    },
    get tokenFile() {
      return store.tokenFile;
    },
    async get(name) {
      const value = await store.get(name);
      scrubber.register(value);
      return value;
    },
    async set(name, value) {
      // Before the write: a keychain error that echoes the value must not show it either.
      scrubber.register(value);
      await store.set(name, value);
    },
    delete: (name) => store.delete(name),
    list: () => store.list(),
  };
}
