// One call of the running companion's handler map, as its page makes them: over the page's
// WebSocket at /ws (api/ws-server.ts), with the gateway token as bearer. For the commands that act
// as the person in the app that owns the connections (`tasks cancel`). Like the hook and the
// `connect` shim it goes through the proven agent (proven-connection.ts): the token is sent only
// once the listener has proven it is the companion.
import WebSocket from "ws";
import type { Envelope, InvokeArg, InvokeChannel, InvokeResult, WsClientMessage } from "../../shared/contract";
import { isPlainObject } from "../../shared/unknown-value";
import { NotTheCompanion, provenAgent } from "./proven-connection";

/** The companion could not be asked (not running, something else on the port, a refused token). */
export class NoCompanion extends Error {}

/** The companion answers at once; a call that waits longer than this is not going to be answered. */
const CALL_TIMEOUT_MS = 30_000;
/** A reply is one list of tasks or a short refusal; bigger is not the companion's. */
const MAX_REPLY_BYTES = 8 * 1024 * 1024;

function refusedWhy(error: Error & { code?: string }, origin: string): string {
  if (error instanceof NotTheCompanion) return `${error.message}. Nothing was sent to it but a random challenge.`;
  if (error.code === "ECONNREFUSED") return `the companion is not running at ${origin} (connection refused). Start Toolnexus Companion and try again.`;
  const status = /Unexpected server response: (\d+)/.exec(error.message)?.[1];
  if (status === "401") return `the companion at ${origin} refused the token (was it rotated?).`;
  if (status) return `the companion at ${origin} refused the request (${status}).`;
  return `could not reach the companion at ${origin}: ${error.message}`;
}

export function callCompanion<C extends InvokeChannel>(base: string, token: string, channel: C, arg: InvokeArg<C>, timeoutMs = CALL_TIMEOUT_MS): Promise<Envelope<InvokeResult<C>>> {
  const url = new URL("/ws", base);
  if (url.protocol !== "http:") return Promise.reject(new NoCompanion(`the companion listens on plain http on loopback, not ${url.protocol}`));
  url.protocol = "ws:";
  const origin = `http://${url.host}`;
  return new Promise((resolve, reject) => {
    const agent = provenAgent(token);
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` }, agent, maxPayload: MAX_REPLY_BYTES, handshakeTimeout: timeoutMs });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      ws.terminate();
      agent.destroy();
      outcome();
    };
    const timer = setTimeout(() => finish(() => reject(new NoCompanion(`the companion at ${origin} did not answer within ${timeoutMs / 1000} s.`))), timeoutMs);
    ws.on("error", (error) => finish(() => reject(new NoCompanion(refusedWhy(error, origin)))));
    ws.on("close", () => finish(() => reject(new NoCompanion(`the companion at ${origin} closed the connection before answering (did it quit?).`))));
    ws.on("open", () => {
      const message: WsClientMessage = { t: "invoke", id: 1, channel, arg };
      ws.send(JSON.stringify(message));
    });
    ws.on("message", (data) => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(data.toString());
      } catch {
        return;
      }
      // Events to every page (inbox:event, servers:changed…) come on the same socket: not ours.
      if (!isPlainObject(parsed) || parsed.t !== "result" || parsed.id !== 1 || !isPlainObject(parsed.envelope)) return;
      const envelope = parsed.envelope as Envelope<InvokeResult<C>>;
      finish(() => resolve(envelope));
    });
  });
}
