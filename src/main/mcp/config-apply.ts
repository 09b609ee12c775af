// A config read applied to the running servers (supervisor.ts): only the servers whose entries
// changed are touched; removed ones stop, changed ones restart, added ones start, and entries
// that could not be read are shown as failed servers.
import { parseConfig } from "./config/parse";
import { diffServers } from "./config/watch";
import { type RuntimeSource } from "./supervision";
import { errorMessage } from "../../shared/unknown-value";

export interface ApplyContext {
  source: RuntimeSource;
  /** Servers run for this session only (startExtra); a config entry of the same name replaces one. */
  extras: Set<string>;
  /** Forgets a server's restarts before it is stopped or replaced. */
  forget: (name: string) => void;
  log: (line: string) => void;
  /** Each config read that is applied (core registers its secrets with the scrubber). */
  onConfig?: (config: unknown) => void;
  /** The whole file's error, or undefined once a read applied. */
  setConfigError: (error: string | undefined) => void;
}

/** Applies a config read: only the servers whose entries changed are touched. */
export async function applyConfig(context: ApplyContext, config: unknown): Promise<void> {
  const { source, extras, forget, log, setConfigError } = context;
  let parsed;
  try {
    parsed = parseConfig(config);
  } catch (error) {
    const message = errorMessage(error);
    log(`config: ${message}; keeping the servers as they were.`);
    setConfigError(message);
    return;
  }
  context.onConfig?.(config);
  const before = source.list().filter((c) => !extras.has(c.config.name) || parsed.servers.some((s) => s.name === c.config.name)).map((c) => c.config);
  const diff = diffServers(before, parsed.servers);
  for (const name of diff.removed) {
    forget(name);
    extras.delete(name);
    await source.remove(name);
    log(`config: "${name}" removed; stopped it.`);
  }
  const starts: Promise<void>[] = [];
  for (const server of diff.changed) {
    forget(server.name);
    extras.delete(server.name);
    const fresh = await source.replace(server);
    log(`config: "${server.name}" changed; restarting it.`);
    starts.push(fresh.connect());
  }
  for (const server of diff.added) {
    const fresh = source.add(server);
    log(`config: "${server.name}" added; starting it.`);
    starts.push(fresh.connect());
  }
  source.setInvalid(parsed.invalid.map(({ name, error }) => ({ name, state: "failed", error, toolCount: 0 })));
  for (const { error } of parsed.invalid) log(`config: ${error}`);
  setConfigError(undefined);
  // Started in the background: a slow server must not hold back the next edit.
  void Promise.all(starts).catch(() => undefined);
}
