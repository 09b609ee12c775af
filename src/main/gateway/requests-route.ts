// Questions agents post themselves (a Request, shared/types.ts): POST /v1/requests holds the HTTP request open
// until the person answers and returns the Answer; GET lists what is pending; DELETE withdraws a
// question its poster no longer needs. Mounted behind the listener's Host/Origin/token guard.
//
// Who may see or withdraw a question: only its poster. Every agent shares the one gateway token
// and names itself in X-Agent-Name, so neither says who posted; and the poster's own connection
// is busy with the open POST. So each POST gets a fresh capability in its response headers
// (X-Request-Capability, sent at once, before the answer), and GET and DELETE of that question
// need it. Without it a question does not exist for the caller (404, the same as an unknown id,
// so ids cannot be probed); X-Agent-Name stays a name shown to the person. Who posted what is
// posted-questions.ts's.
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Admission, Inbox, Quota } from "../inbox";
import { HttpError, readBody } from "../http/body";
import type { Route, RouteAuth } from "../http/listener";
import { bearerToken } from "../http/guard";
import { parseTarget } from "../http/request-target";
import { tryStringify } from "../base/json-bounds";
import { MAX_PENDING_PER_CALLER } from "../../shared/limits";
import type { Request } from "../../shared/types";
import { checkRequest } from "./validate-request";
import { AgentGone } from "../inbox/agent-gone";
import { CAPABILITY_HEADER, PostedQuestions } from "./posted-questions";

export interface RequestsRouteOptions {
  inbox: Inbox;
  log?: (line: string) => void;
  /** Whitespace sent while waiting, so proxies and HTTP clients with idle timeouts keep the request alive. */
  heartbeatMs?: number;
  /** Pending questions per token and per connection (default MAX_PENDING_PER_CALLER). */
  maxPendingPerCaller?: number;
}

export interface RequestsRoute extends Route {
  /** Withdraws every question this route is waiting on (app quit). */
  close(): void;
}

const PREFIX = "/v1/requests";
const AGENT_NAME = /^[\x20-\x7e]{1,100}$/;

/** How long a refused caller should wait before it asks again (the person answers in seconds). */
const RETRY_AFTER_S = 5;

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = tryStringify(body);
  if (text === undefined) {
    status = 500;
  }
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers });
  res.end(text ?? JSON.stringify({ error: { status, message: "The answer could not be written as JSON." } }));
}

function refuse(res: ServerResponse, status: number, reason: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { error: { status, message: reason } }, headers);
}

/**
 * The flood caps of one POST. Every agent shares the one gateway token and chooses its own
 * X-Agent-Name, so neither the name nor the token alone can tell callers apart: the token's
 * digest caps all agents together, and the TCP connection caps a single client that opens
 * questions over one keep-alive connection (pipelining).
 */
function callerQuotas(req: IncomingMessage, max: number): Quota[] {
  const token = bearerToken(req) ?? "";
  const digest = createHash("sha256").update(token).digest("hex").slice(0, 16);
  const socket = req.socket;
  return [
    { key: `token:${digest}`, max, label: "Agents using this token" },
    { key: `connection:${socket.remoteAddress ?? "?"}:${socket.remotePort ?? "?"}`, max, label: "This connection" },
  ];
}

/** The caller's name: X-Agent-Name, else "agent". Shown to the person, so printable ASCII only. */
function agentName(req: IncomingMessage): string | HttpError {
  const header = req.headers["x-agent-name"];
  if (header === undefined) return "agent";
  const value = Array.isArray(header) ? header[0] : header;
  const name = value.trim();
  if (!AGENT_NAME.test(name)) return new HttpError(400, "X-Agent-Name must be 1-100 printable ASCII characters.");
  return name;
}

/** A POST's Request, read and checked; undefined once the refusal is sent. */
async function readPosted(req: IncomingMessage, res: ServerResponse): Promise<Request | undefined> {
  let raw: Buffer;
  try {
    raw = await readBody(req);
  } catch (error) {
    // Oversize is a validation failure like the others here: 400 with the reason.
    if (error instanceof HttpError) return void refuse(res, 400, error.message);
    throw error;
  }
  let body: unknown;
  try {
    body = JSON.parse(raw.toString("utf8"));
  } catch (error) {
    return void refuse(res, 400, `The body is not valid JSON: ${(error as Error).message}`);
  }
  const checked = checkRequest(body);
  if (!checked.ok) return void refuse(res, 400, checked.reason);
  return checked.request;
}

/** A refused admission, answered: never an Answer an agent could take for the person's own cancel. */
function refuseAdmission(res: ServerResponse, admission: Extract<Admission, { ok: false }>): void {
  switch (admission.kind) {
    case "busy":
      return refuse(res, 429, `Too many questions waiting: ${admission.reason}. Retry when some are answered.`, { "retry-after": String(RETRY_AFTER_S) });
    case "closed":
      return refuse(res, 503, "The companion is shutting down.");
    case "expired":
      // The Request's own deadline passed: that is its Answer, as if it had expired pending.
      return sendJson(res, 200, admission.answer);
    default:
      return refuse(res, 400, `The Request is refused: ${admission.reason}.`);
  }
}

export function createRequestsRoute(options: RequestsRouteOptions): RequestsRoute {
  const { inbox } = options;
  const log = options.log ?? (() => {});
  const heartbeatMs = options.heartbeatMs ?? 20_000;
  const maxPerCaller = options.maxPendingPerCaller ?? MAX_PENDING_PER_CALLER;
  const posted = new PostedQuestions();

  async function post(req: IncomingMessage, res: ServerResponse, agent: string, auth: RouteAuth | undefined): Promise<void> {
    const request = await readPosted(req, res);
    if (!request) return;
    if (inbox.get(request.id) || posted.has(request.id)) {
      return refuse(res, 400, `A question with id "${request.id}" is already pending; ids must be unique while pending.`);
    }
    if (res.destroyed) return;

    // The caller may give up at any time: its closed connection withdraws the question.
    const controller = new AbortController();
    const admission = inbox.admit(request, { source: { agent }, signal: controller.signal, quotas: callerQuotas(req, maxPerCaller) });
    if (!admission.ok) {
      log(`requests: refused "${request.id}" from ${agent}: ${admission.reason}`);
      return refuseAdmission(res, admission);
    }
    const capability = posted.add(request.id, agent, controller, auth?.credential ?? "");
    res.once("close", () => {
      if (!res.writableFinished) controller.abort(new AgentGone(agent));
    });
    // Headers now, body when answered: clients see the request was accepted (and get the
    // capability to withdraw it), and a leading whitespace heartbeat (valid before JSON) keeps
    // idle timeouts from cutting a long wait.
    res.writeHead(200, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", [CAPABILITY_HEADER]: capability });
    res.flushHeaders();
    const heartbeat = setInterval(() => {
      if (!res.destroyed && !res.writableEnded) res.write("\n");
    }, heartbeatMs);
    heartbeat.unref();
    log(`requests: ${agent} asks "${request.id}" (${request.kind})`);
    try {
      const answer = await admission.answer;
      if (!res.destroyed && !res.writableEnded) res.end(tryStringify(answer) ?? JSON.stringify({ id: request.id, ok: false, reason: "cancelled" }));
    } finally {
      clearInterval(heartbeat);
      posted.delete(request.id);
    }
  }

  const notYours = (res: ServerResponse, id: string) =>
    refuse(res, 404, `No pending question "${id}" that you posted (send the ${CAPABILITY_HEADER} header its POST was answered with).`);

  function withdraw(req: IncomingMessage, res: ServerResponse, auth: RouteAuth | undefined, id: string): void {
    const mine = posted.owned(req, auth, id);
    if (!mine) return notYours(res, id);
    mine.controller.abort();
    sendJson(res, 200, { id, withdrawn: true });
  }

  /** The pending entries of the questions the caller posted. */
  function ownList(req: IncomingMessage, auth: RouteAuth | undefined) {
    return inbox.list().filter((entry) => posted.isOwned(req, auth, entry.request.id));
  }

  async function handle(req: IncomingMessage, res: ServerResponse, auth?: RouteAuth): Promise<void> {
    const url = parseTarget(req.url);
    if (!url) return refuse(res, 400, "The request target is not a valid path.");
    const rest = url.pathname.slice(PREFIX.length).replace(/^\/+/, "").replace(/\/+$/, "");
    // Who owns a question is the credential's to say (postedBy); X-Agent-Name is the name the
    // person sees, the credential's agent when the caller gives none.
    const agent = auth?.agent !== undefined && req.headers["x-agent-name"] === undefined ? auth.agent : agentName(req);
    if (agent instanceof HttpError) return refuse(res, agent.status, agent.message);
    const method = req.method ?? "GET";

    if (rest === "") {
      if (method === "POST") return post(req, res, agent, auth);
      if (method === "GET") return sendJson(res, 200, { entries: ownList(req, auth) });
    } else if (!rest.includes("/")) {
      let id: string;
      try {
        id = decodeURIComponent(rest);
      } catch {
        return refuse(res, 400, "The id in the path is not valid percent-encoding.");
      }
      if (method === "DELETE") return withdraw(req, res, auth, id);
      if (method === "GET") {
        const entry = posted.isOwned(req, auth, id) ? inbox.get(id) : undefined;
        return entry ? sendJson(res, 200, entry) : notYours(res, id);
      }
    } else {
      return refuse(res, 404, "Not found.");
    }
    res.setHeader("allow", rest === "" ? "GET, POST" : "GET, DELETE");
    refuse(res, 405, `Method ${method} is not allowed here.`);
  }

  return {
    prefix: PREFIX,
    handle,
    // The listener refuses a declared oversize body before handle runs; here that is a 400 like
    // every other validation failure (issue 4), so agents need one error path.
    refuse(res, refusal) {
      refuse(res, refusal.status === 413 ? 400 : refusal.status, refusal.message);
    },
    close() {
      posted.abortAll();
    },
  };
}
