// Web Push to paired devices (RFC 8030, payload encrypted per RFC 8291, signed per RFC 8292): a
// question's notice, and the "close" that withdraws it once it is answered or withdrawn anywhere.
// web-push builds each request (encryption, VAPID headers); outbound.ts sends it, bounded. The
// device's service worker (src/renderer/public/push.js) shows or closes the notification by tag.
import { createHash } from "node:crypto";
import webPush from "web-push";
import type { Notice, PushTarget, PushTargets } from "./types";
import type { VapidKeys } from "./vapid";
import { OutboundError, send } from "./outbound";

/** What the service worker receives. `tag` names the notification, so a close finds it. */
export type PushMessage = { type: "question"; id: string; tag: string; title: string; body: string; url?: string } | { type: "close"; id: string; tag: string };

/** A question is worth an hour on the push service; a close is worth as long (it replaces it). */
const TTL_SECONDS = 3600;

/** The notification's tag, and the push Topic: the same for a question and its close, so a close
 * still waiting at the push service replaces the question (RFC 8030 section 5.4: at most 32 characters). */
export function pushTag(id: string): string {
  return createHash("sha256").update(id).digest("base64url").slice(0, 32);
}

export interface PushOptions {
  targets: PushTargets;
  keys: () => Promise<VapidKeys>;
  /** The https: or mailto: contact a push service may write to about this sender. */
  subject: () => string;
  log: (line: string) => void;
}

export interface Pusher {
  /** Sends the notice to every device that allows notifications; the ids it reached. */
  notify(notice: Notice): Promise<string[]>;
  /** Withdraws question `id`'s notification from the devices it was sent to. */
  close(id: string, deviceIds: string[]): Promise<void>;
  /** A test notification to every device. */
  test(): Promise<string[]>;
}

export function createPusher(options: PushOptions): Pusher {
  const deliver = async (target: PushTarget, message: PushMessage, urgency: "high" | "normal"): Promise<boolean> => {
    if (!target.subscription) return false;
    const keys = await options.keys();
    let details: ReturnType<typeof webPush.generateRequestDetails>;
    try {
      details = webPush.generateRequestDetails(target.subscription, JSON.stringify(message), {
        vapidDetails: { subject: options.subject(), publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: TTL_SECONDS,
        urgency,
        topic: message.tag,
        contentEncoding: "aes128gcm",
      });
    } catch (error) {
      options.log(`reach: the push subscription of "${target.name}" cannot be used (${(error as Error).message})`);
      return false;
    }
    try {
      await send({ url: details.endpoint, headers: details.headers as Record<string, string>, body: details.body ?? new Uint8Array() });
      return true;
    } catch (error) {
      const status = error instanceof OutboundError ? error.status : undefined;
      // The subscription expired or was withdrawn in the browser: it will never work again.
      if (status === 404 || status === 410) options.targets.forget?.(target.id);
      options.log(`reach: push to "${target.name}" failed: ${(error as Error).message}`);
      return false;
    }
  };
  const broadcast = async (message: PushMessage, urgency: "high" | "normal", only?: Set<string>): Promise<string[]> => {
    const targets = options.targets.list().filter((t) => t.subscription && (!only || only.has(t.id)));
    const reached = await Promise.all(targets.map((t) => deliver(t, message, urgency)));
    return targets.filter((_, i) => reached[i]).map((t) => t.id);
  };
  return {
    notify: (notice) =>
      broadcast({ type: "question", id: notice.id, tag: pushTag(notice.id), title: notice.title, body: notice.body, ...(notice.url ? { url: notice.url } : {}) }, "high"),
    close: async (id, deviceIds) => {
      if (deviceIds.length) await broadcast({ type: "close", id, tag: pushTag(id) }, "normal", new Set(deviceIds));
    },
    test: () => broadcast({ type: "question", id: "test", tag: pushTag("test"), title: "Toolnexus Companion", body: "This is a test: notifications reach this device." }, "normal"),
  };
}
