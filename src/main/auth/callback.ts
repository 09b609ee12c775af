// Where the authorization server sends the browser back. One hub matches each callback to the
// sign-in that is waiting for it by `state` (the SDK does not check it; we do), and answers the
// browser with a short page once the code is redeemed. The hub is served by a loopback listener of
// its own (startCallbackListener), in the desktop app and in browser mode alike.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { timingSafeEqual } from "node:crypto";

export const CALLBACK_PATH = "/oauth/callback";
/** Longest the browser's page waits for the code to be redeemed before it says "still working". */
const PAGE_WAIT_MS = 30_000;
/** A callback's query is a code, a state and an issuer: anything this long is not one. */
const MAX_QUERY_LENGTH = 8 * 1024;

export type CallbackOutcome = { ok: true } | { ok: false; message: string };

interface Waiting {
  server: string;
  resolve(params: URLSearchParams): void;
  outcome: Promise<CallbackOutcome>;
  settle(outcome: CallbackOutcome): void;
}

export interface Expectation {
  /** The callback's query, once the browser lands here with our state. */
  params: Promise<URLSearchParams>;
  /** What the browser's page says: called once the code was redeemed (or was not). */
  settle(outcome: CallbackOutcome): void;
  cancel(): void;
}

function sameState(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface CallbackPage {
  status: number;
  title: string;
  message: string;
}

export class CallbackHub {
  private readonly waiting = new Map<string, Waiting>();

  /** A sign-in waits for the callback carrying `state`; the state is used once. */
  expect(state: string, server: string): Expectation {
    let resolve!: (params: URLSearchParams) => void;
    const params = new Promise<URLSearchParams>((r) => (resolve = r));
    let settle!: (outcome: CallbackOutcome) => void;
    const outcome = new Promise<CallbackOutcome>((r) => (settle = r));
    this.waiting.set(state, { server, resolve, outcome, settle });
    return {
      params,
      settle: (o) => settle(o),
      cancel: () => {
        if (this.waiting.get(state)?.resolve === resolve) this.waiting.delete(state);
        settle({ ok: false, message: "This sign-in was cancelled in the companion." });
      },
    };
  }

  get pending(): number {
    return this.waiting.size;
  }

  /** The page for one callback request. Never echoes the query (it carries the code). */
  async handle(query: URLSearchParams): Promise<CallbackPage> {
    const state = query.get("state");
    let found: [string, Waiting] | undefined;
    if (state) for (const entry of this.waiting) if (sameState(entry[0], state)) found = entry;
    if (!found) {
      return {
        status: 400,
        title: "Sign-in not recognised",
        message: "This sign-in response does not match a sign-in the companion started (its state is missing or unknown). Start the sign-in again from the companion.",
      };
    }
    const [key, waiting] = found;
    this.waiting.delete(key);
    waiting.resolve(query);
    const timeout = new Promise<CallbackOutcome>((r) =>
      setTimeout(() => r({ ok: false, message: "The companion is still finishing the sign-in; check it for the result." }), PAGE_WAIT_MS).unref(),
    );
    const outcome = await Promise.race([waiting.outcome, timeout]);
    return outcome.ok
      ? { status: 200, title: "Signed in", message: `Signed in to "${waiting.server}". You can close this tab and return to Toolnexus Companion.` }
      : { status: 400, title: "Sign-in failed", message: outcome.message };
  }

  /** Serves `handle` on a Node response: GET only, no caching, no referrer (the URL carries the code). */
  async serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = req.url ?? "";
    const headers = {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'",
    };
    let page: CallbackPage;
    if (req.method !== "GET") page = { status: 405, title: "Not allowed", message: "The sign-in callback takes GET only." };
    else if (raw.length > MAX_QUERY_LENGTH) page = { status: 414, title: "Too long", message: "This is not a sign-in response." };
    else {
      const query = raw.indexOf("?") >= 0 ? raw.slice(raw.indexOf("?") + 1) : "";
      page = await this.handle(new URLSearchParams(query));
    }
    res.writeHead(page.status, headers);
    res.end(
      `<!doctype html><meta charset="utf-8"><title>${escapeHtml(page.title)}</title>` +
        `<body style="font-family:system-ui,sans-serif;max-width:36em;margin:4em auto"><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.message)}</p></body>`,
    );
  }
}

export interface CallbackListener {
  /** `http://127.0.0.1:<port>/oauth/callback` */
  url: string;
  close(): Promise<void>;
}

/**
 * A loopback listener that serves only the callback path. It asks for no token (a browser
 * redirect cannot carry one): `state` is the callback's credential.
 */
export async function startCallbackListener(hub: CallbackHub, port = 0): Promise<CallbackListener> {
  const server = createServer((req, res) => {
    req.on("error", () => {});
    res.on("error", () => {});
    const path = (req.url ?? "").split("?")[0];
    if (path !== CALLBACK_PATH) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      res.end("Not found.");
      return;
    }
    hub.serve(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}${CALLBACK_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
