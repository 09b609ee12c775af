// The one place that scrubs what leaves the process. Servers echo our request headers back (in
// error bodies, tool results, log messages), prompts quote what servers wrote, and every such text
// may carry a secret the companion knows; so whatever goes to a page, the tray, a notification,
// an agent, a file or a log line passes through here first, scrubbed by the process's registry
// (secrets/scrub.ts) that the core fills. Each kind below is scrubbed exactly once on its way
// out; the transports (desktop/ipc.ts, api/ws-server.ts, the gateway) only carry it.
import type { EventChannel, EventMap, Settings } from "../../shared/contract";
import type { PendingEntry, ServerStatus } from "../../shared/types";
import type { Handlers } from "../api/handlers";
import type { AgentOutbound } from "../gateway/outbound";
import type { ServerViewsDeps } from "../mcp/server-views";
import { terminalText } from "../base/terminal-text";
import type { SecretScrubber } from "../secrets/scrub";

export interface Egress {
  /** An event's payload, as every view receives it (pages, tray, notifications). */
  event<E extends EventChannel>(payload: EventMap[E]): EventMap[E];
  /**
   * The handler map as the transports and the desktop shell call it: every result and every
   * failure scrubbed (tool runs relay what servers answered, inbox entries what they asked).
   * The one exception is the rotated token's result, which the person asked to see so they can
   * give it to their agents; a failure of that handler is scrubbed like any other.
   */
  handlers(handlers: Handlers): Handlers;
  /** A handler's failure, scrubbed: the error the envelope (rpc/envelope.ts) then describes. */
  error(error: unknown): unknown;
  /** The pending questions, as the tray and the window's start-up check read them. */
  pending(entries: PendingEntry[]): PendingEntry[];
  /** The settings, as the tray reads them at start. */
  settings(settings: Settings): Settings;
  /** A server's status change, as browser mode's log reads it. */
  status(status: ServerStatus): ServerStatus;
  /** The servers view's scrub, and the generation that says when kept views need it again. */
  views: Pick<ServerViewsDeps, "scrub" | "scrubGeneration">;
  /** What the gateway sends agents: tools lists, results, errors, notifications, requests. */
  agents: AgentOutbound;
  /** A record on its way to a file (history, rules): a known secret is never written. */
  stored<T>(value: T): T;
  /** A value the server form shows the page: the same scrub its handler's result gets. */
  shown(text: string): string;
  /** A sink whose every line is scrubbed (the core's log). */
  log(sink: (line: string) => void): (line: string) => void;
  /** What leaves for another device or service (Web Push, ntfy, webhooks, email: reach/). */
  away(text: string): string;
}

/** The channel whose result is never scrubbed: the new token is what the person asked for. */
const UNSCRUBBED_RESULT = "gateway:rotateToken";

export function createEgress(scrubber: SecretScrubber): Egress {
  const value = <T>(v: T): T => scrubber.scrubValue(v);
  const text = (t: string): string => scrubber.scrub(t);
  const error = (e: unknown): unknown => {
    if (e instanceof Error) return scrubber.scrubError(e);
    // A thrown non-error is described by its text (rpc/envelope.ts); only a text with a secret changes.
    const described = String(e);
    const scrubbed = text(described);
    return scrubbed === described ? e : scrubbed;
  };
  return {
    event: value,
    handlers(handlers) {
      const out = { ...handlers } as Record<string, (arg: unknown) => Promise<unknown>>;
      for (const [channel, handler] of Object.entries(handlers) as [string, (arg: unknown) => Promise<unknown>][]) {
        const result = channel === UNSCRUBBED_RESULT ? <T>(v: T) => v : value;
        out[channel] = async (arg) => {
          try {
            return result(await handler(arg));
          } catch (failure) {
            throw error(failure);
          }
        };
      }
      return out as Handlers;
    },
    error,
    pending: value,
    settings: value,
    status: value,
    views: { scrub: value, scrubGeneration: () => scrubber.generation },
    agents: { relay: value, text },
    stored: value,
    shown: text,
    log: (sink) => (line) => sink(text(line)),
    away: text,
  };
}

/**
 * The process's log sink (app/electron.ts, app/serve.ts): never a registered secret, and never a
 * control character or escape sequence (lines quote servers' stderr, names and errors, and go to
 * a terminal). A log line is one line: a line break inside it is a space, so no text can pass for
 * a line of its own.
 */
export function scrubbedLog(sink: (line: string) => void, scrubber: SecretScrubber): (line: string) => void {
  return (line) => sink(terminalText(scrubber.scrub(line)));
}
