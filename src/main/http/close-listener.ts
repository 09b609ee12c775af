// How a listener of ours ends (http/listener.ts, the device listener): its WebSockets cut at once,
// then the server, with every kept-alive connection closed so close() resolves now, not when the
// last idle browser lets go.
import type { Server } from "node:http";
import type { WebSocketServer } from "ws";

export function closeListener(server: Pick<Server, "close" | "closeAllConnections">, wss: WebSocketServer): Promise<void> {
  return new Promise<void>((resolvePromise) => {
    for (const ws of wss.clients) ws.terminate();
    wss.close();
    server.close(() => resolvePromise());
    server.closeAllConnections();
  });
}
