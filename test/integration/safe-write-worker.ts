// A writer in its own thread for safe-write-lock.test.ts: makes its edits of one file, each adding
// its own key, through the sync or the async entry of the safe writer.
import { parentPort, workerData } from "node:worker_threads";
import { editFileSafe, editFileSafeSync } from "../../src/main/base/safe-write";

const { path, keys, sync } = workerData as { path: string; keys: string[]; sync: boolean };
const addKey = (key: string) => (current: string | undefined) => {
  const value = current ? (JSON.parse(current) as Record<string, number>) : {};
  value[key] = (value[key] ?? 0) + 1;
  return `${JSON.stringify(value)}\n`;
};
for (const key of keys) {
  if (sync) editFileSafeSync(path, addKey(key));
  else await editFileSafe(path, addKey(key));
}
parentPort!.postMessage("done");
