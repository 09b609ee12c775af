// A paired device's side of the device listener, as a test plays it: HTTPS requests and the
// WebSocket with a fresh proof each (key, time, nonce), the certificate's fingerprint read off
// the TLS connection. Self-signed, so the chain is not checked; the fingerprint is.
import { randomBytes } from "node:crypto";
import { request } from "node:https";
import type { TLSSocket } from "node:tls";
import { WebSocket } from "ws";

export interface Reply {
  status: number;
  body: string;
  fingerprint?: string;
}

export function proof(key: string, time = Date.now(), nonce = randomBytes(16).toString("base64url")): string {
  return `${key}.${time}.${nonce}`;
}

export function httpsCall(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? "GET", headers: options.headers, rejectUnauthorized: false, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      const fingerprint = (res.socket as TLSSocket).getPeerCertificate?.()?.fingerprint256;
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), fingerprint }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Opens the device WebSocket with `protocols`; resolves with the socket, or the refusal's status. */
export function openDeviceSocket(url: string, protocols: string[], headers: Record<string, string> = {}): Promise<{ ws?: WebSocket; status?: number }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(url.replace(/^https/, "wss") + "/ws", protocols, { rejectUnauthorized: false, headers });
    ws.once("open", () => resolve({ ws }));
    ws.once("unexpected-response", (_req, res) => {
      resolve({ status: res.statusCode });
      res.resume();
    });
    ws.once("error", () => resolve({ status: -1 }));
  });
}

/** One invoke on a device socket; resolves with its envelope. */
export function invoke(ws: WebSocket, channel: string, arg?: unknown): Promise<{ ok: boolean; value?: any; error?: { code: string; message: string } }> {
  const id = Math.floor(Math.random() * 1e9);
  return new Promise((resolve) => {
    const onMessage = (data: unknown) => {
      const message = JSON.parse(String(data));
      if (message.t === "result" && message.id === id) {
        ws.off("message", onMessage);
        resolve(message.envelope);
      }
    };
    ws.on("message", onMessage);
    ws.send(JSON.stringify({ t: "invoke", id, channel, arg }));
  });
}
