export { HistoryStore, type NewQuestion, type Settlement } from "./store";
export { HistoryBusyError, HistoryUnavailableError, type HistoryStoreOptions } from "./db";
export { attachHistory, type HistoryOptions, type HistoryRecorder } from "./recorder";
export { defaultHistoryPath } from "./paths";
export { MIGRATIONS, SCHEMA_VERSION } from "./migrations";
export { openHistory, type HistoryHandle, type OpenHistoryOptions } from "./open";
export { createHistoryHandlers, historyOffHandlers, type HistoryHandlers } from "./handlers";
