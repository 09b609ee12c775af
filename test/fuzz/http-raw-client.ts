// Raw bytes to the listener over a plain TCP socket, for requests no HTTP client would send
// (malformed targets, cookies, upgrades), and the status line that comes back.
import { connect } from "node:net";

export interface RawReply {
  /** The status code of the first response, or 0 when the connection closed without one. */
  status: number;
  text: string;
}

/** Writes `bytes`, reads until the server closes (or `timeoutMs`), parses the first status line. */
export function rawExchange(port: number, bytes: string | Buffer, timeoutMs = 3000): Promise<RawReply> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString("latin1");
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      resolve({ status: match ? Number(match[1]) : 0, text });
    };
    const timer = setTimeout(finish, timeoutMs);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("end", finish);
    socket.on("close", finish);
    socket.on("error", finish);
    socket.write(bytes);
  });
}

/** A GET (or upgrade) with the given target and extra header lines, closing after the reply. */
export function rawRequestBytes(target: string, headers: Record<string, string>, method = "GET"): string {
  const lines = [`${method} ${target} HTTP/1.1`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  if (!Object.keys(headers).some((k) => k.toLowerCase() === "connection")) lines.push("Connection: close");
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/** The headers of a WebSocket upgrade to /ws (the key is any 16 bytes in base64). */
export function upgradeHeaders(port: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    Host: `127.0.0.1:${port}`,
    Connection: "Upgrade",
    Upgrade: "websocket",
    "Sec-WebSocket-Version": "13",
    "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    ...extra,
  };
}
