// How a connection's failures are worded in its status: a connect that failed, a server that
// went away. For a stdio server how its process ended, and its last output, are the facts to say.
import type { Transport } from "@modelcontextprotocol/client";
import type { ServerConfig } from "../config/config";
import { GroupStdioTransport } from "./stdio-transport";
import { errorMessage } from "../../../shared/unknown-value";


function ended(exit: { code: number | null; signal: string | null }): string {
  return exit.signal ? `the server process was killed (${exit.signal})` : `the server process exited with code ${exit.code}`;
}

function lastOutput(transport: GroupStdioTransport): string {
  const tail = transport.stderrTail();
  return tail ? `; its last output: ${tail.split("\n").slice(-3).join(" | ")}` : "";
}

/**
 * Why a connect failed, in `phase` ("connect" or the request that failed). `violation` is why the
 * connection was closed by us for what the server sent: then that is the reason.
 */
export function connectFailure(config: ServerConfig, transport: Transport | undefined, error: unknown, phase: string, violation?: string): string {
  if (violation) return violation;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT" && config.type === "local") return `command "${config.command}" was not found`;
  if (code === "EACCES" && config.type === "local") return `command "${config.command}" is not executable`;
  let message = errorMessage(error);
  if (/timed out|did not finish/i.test(message)) {
    const step = phase === "connect" ? "initialize" : phase;
    message = `${step} got no answer within ${config.timeout} ms`;
  }
  if (transport instanceof GroupStdioTransport) {
    const exit = transport.exitInfo();
    // The pipe's own words for a process that is gone ("Connection closed", "not running") race
    // each other; how it ended is the one fact to say.
    if (exit && /Connection closed|is not running|EPIPE/.test(message)) message = ended(exit);
    else if (exit && exit.code !== null) message += ` (the server process exited with code ${exit.code})`;
    message += lastOutput(transport);
  }
  return message;
}

/** Why a connection that was up ended on its own. */
export function closedDetail(transport: Transport | undefined, violation?: string): string {
  if (violation) return violation;
  let detail = "the connection closed";
  if (transport instanceof GroupStdioTransport) {
    const exit = transport.exitInfo();
    if (exit) detail = ended(exit);
    detail += lastOutput(transport);
  }
  return detail;
}
