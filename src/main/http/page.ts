// The browser-mode page on the listener: the printed link (its token traded once for a session
// cookie), the built renderer's files, and the page's authenticated WebSocket at /ws.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { WebSocket, WebSocketServer } from "ws";
import { checkRequest, isLoopbackHost, isLoopbackOrigin, sameSecret, type GuardResult } from "./guard";
import { BAD_TARGET, sendText, writeRaw } from "./replies";
import { parseTarget } from "./request-target";
import { serveStatic } from "./static-files";

/** The page's session cookie: a per-run secret under a per-port name (listener.ts). */
export interface PageCookie {
  name(): string;
  value(): string;
}

export interface PageOptions {
  token: () => string;
  cookie: PageCookie;
}

/** The page's own requests pass with the token or its session cookie. */
function pageVerdict(req: IncomingMessage, options: PageOptions): GuardResult {
  return checkRequest(req, { token: options.token, allowCookie: true, cookie: { name: options.cookie.name(), value: options.cookie.value } });
}

/** A request no route took: the page's link or one of its files (GET and HEAD only). */
export async function servePage(req: IncomingMessage, res: ServerResponse, staticDir: string, options: PageOptions): Promise<void> {
  if (req.method !== "GET" && req.method !== "HEAD") return sendText(res, 405, "Method not allowed.", { allow: "GET, HEAD" });
  const url = parseTarget(req.url);
  if (!url) return sendText(res, 400, BAD_TARGET);

  const offered = url.searchParams.get("token");
  if (offered !== null) {
    // The printed link: trade the token for the session cookie, then drop it from the address bar.
    if (!isLoopbackHost(req.headers.host)) return sendText(res, 403, "Refused: this Host is not a loopback name.");
    const origin = req.headers.origin;
    if (origin !== undefined && !isLoopbackOrigin(origin)) return sendText(res, 403, "Refused: foreign Origin.");
    if (!sameSecret(offered, options.token())) {
      return sendText(res, 401, "Refused: the token in this link is wrong or was rotated. Use the link the companion printed.");
    }
    url.searchParams.delete("token");
    return sendText(res, 303, "Signed in.", {
      location: url.pathname + url.search,
      "set-cookie": `${options.cookie.name()}=${options.cookie.value()}; HttpOnly; SameSite=Strict; Path=/`,
    });
  }

  const verdict = pageVerdict(req, options);
  if (!verdict.ok) return sendText(res, verdict.status, verdict.message);
  await serveStatic(staticDir, url.pathname, req, res);
}

export interface PageSocketOptions extends PageOptions {
  wss: WebSocketServer;
  onSocket?(ws: WebSocket, req: IncomingMessage): void;
  log: (line: string) => void;
}

/** An upgrade: the page's WebSocket at /ws, or a refusal written to the raw socket. */
export function acceptPageSocket(req: IncomingMessage, socket: Duplex, head: Buffer, options: PageSocketOptions): void {
  socket.on("error", () => {});
  const url = parseTarget(req.url);
  if (!url) return writeRaw(socket, 400, BAD_TARGET);
  const onSocket = options.onSocket;
  if (url.pathname !== "/ws" || !onSocket) return writeRaw(socket, 404, "No WebSocket here.");
  const verdict = pageVerdict(req, options);
  if (!verdict.ok) return writeRaw(socket, verdict.status, verdict.message);
  options.wss.handleUpgrade(req, socket, head, (ws) => {
    try {
      onSocket(ws, req);
    } catch (error) {
      options.log(`ws: a page's socket could not be set up: ${(error as Error).message}`);
      ws.terminate();
    }
  });
}
