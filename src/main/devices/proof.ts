// What a device sends with every request: its key, the time, and a fresh nonce, as one string
// `<key>.<time>.<nonce>` (key: keys.ts). HTTP requests carry it in the `X-Device-Proof` header;
// the WebSocket, whose browser API sets no headers, offers it as a second subprotocol beside
// DEVICE_PROTOCOL (the server answers with DEVICE_PROTOCOL only, so the proof is not echoed).
import type { IncomingMessage } from "node:http";
import type { ReplayGuard } from "./replay";

export const DEVICE_PROTOCOL = "tnc-device-v1";
export const PROOF_HEADER = "x-device-proof";

export interface Proof {
  key: string;
  time: number;
  nonce: string;
}

export function readProof(text: string | undefined): Proof | undefined {
  if (!text || text.length > 200) return undefined;
  const parts = text.split(".");
  if (parts.length !== 5) return undefined;
  const [prefix, id, secret, time, nonce] = parts;
  if (!/^\d{13}$/.test(time)) return undefined;
  return { key: `${prefix}.${id}.${secret}`, time: Number(time), nonce };
}

/** The proof a request carries: the header, or for an upgrade the subprotocol beside DEVICE_PROTOCOL. */
export function proofOf(req: IncomingMessage): Proof | undefined {
  const header = req.headers[PROOF_HEADER];
  if (typeof header === "string") return readProof(header.trim());
  const offered = req.headers["sec-websocket-protocol"];
  if (typeof offered !== "string") return undefined;
  const protocols = offered.split(",").map((p) => p.trim());
  if (!protocols.includes(DEVICE_PROTOCOL)) return undefined;
  return readProof(protocols.find((p) => p !== DEVICE_PROTOCOL));
}

/** The proof's key when the proof is fresh (replay.ts), else undefined. */
export function freshKey(proof: Proof | undefined, replay: ReplayGuard): string | undefined {
  if (!proof) return undefined;
  return replay.fresh(proof.time, proof.nonce) ? proof.key : undefined;
}
