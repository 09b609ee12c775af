// One call for the composition root: open the store in the data folder, record the Inbox into it,
// and serve its channels. core.ts calls openHistory after creating the Inbox and close() after
// inbox.close(), so the questions a shutdown withdraws are written before the file closes.
import type { Inbox } from "../inbox";
import { createHistoryHandlers, type HistoryHandlers } from "./handlers";
import { attachHistory, type HistoryOptions, type HistoryRecorder } from "./recorder";
import { HistoryStore } from "./store";
import type { HistoryStatus } from "../../shared/history";

export interface OpenHistoryOptions extends HistoryOptions {
  /** The database file; default defaultHistoryPath() (TOOLNEXUS_HISTORY_DB overrides it). */
  path?: string;
  /** Applied to every record before it is written (the secret scrubber). */
  redact?: <T>(value: T) => T;
  /** An Electron build of better-sqlite3, and the command that rebuilds it (HistoryStoreOptions). */
  native?: { binding?: string; fix: string };
}

export interface HistoryHandle {
  store: HistoryStore;
  recorder: HistoryRecorder;
  handlers: HistoryHandlers;
  status(): HistoryStatus;
  close(): void;
}

export function openHistory(inbox: Inbox, options: OpenHistoryOptions = {}): HistoryHandle {
  const { path, redact, native, ...recorderOptions } = options;
  const store = new HistoryStore({ path, log: options.log, ...(redact ? { redact } : {}), ...(native?.binding !== undefined ? { nativeBinding: native.binding } : {}), ...(native ? { nativeFix: native.fix } : {}) });
  const recorder = attachHistory(inbox, store, recorderOptions);
  let closed = false;
  return {
    store,
    recorder,
    handlers: createHistoryHandlers({ store, recorder }),
    status: () => store.status(),
    close() {
      if (closed) return;
      closed = true;
      recorder.stop();
      store.close();
    },
  };
}
