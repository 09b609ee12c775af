// The `waitFor` a TypeScript agent hands its toolkit: each suspension becomes one POST to the
// companion's /v1/requests, resolved with the person's Answer. node:http, not fetch, because
// fetch's default header and body timeouts (300 s) would cut a question the person has not yet
// answered. The token goes only over a connection on which the companion proved it holds the
// token too (proven-connection.ts): something else listening on the port learns nothing.
import { request as httpRequest } from "node:http";
import type { Answer, Request } from "../../shared/types";
import { agentCredential } from "../http/agent-credential";
import { NotTheCompanion, provenAgent } from "./proven-connection";

export interface CompanionClientOptions {
  /** Default http://127.0.0.1:7315 (or TOOLNEXUS_COMPANION_URL). */
  url?: string;
  /** Default TOOLNEXUS_COMPANION_TOKEN. */
  token?: string;
  /** Shown to the person as who asks (X-Agent-Name). Default "agent". */
  agent?: string;
  /**
   * Ask as this agent with its own credential (agent-credential.ts), derived here from the token:
   * the companion then knows the caller from the credential, and another agent cannot see or
   * withdraw these questions. The permission hooks use it; the person sees `agent` (else this name).
   */
  asAgent?: string;
}

export type CompanionWaitFor = (request: Request, options?: { signal?: AbortSignal }) => Promise<Answer>;

export const DEFAULT_COMPANION_URL = "http://127.0.0.1:7315";

export class CompanionError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = "CompanionError";
  }
}

export function companionWaitFor(options: CompanionClientOptions = {}): CompanionWaitFor {
  const base = options.url ?? process.env.TOOLNEXUS_COMPANION_URL ?? DEFAULT_COMPANION_URL;
  const token = options.token ?? process.env.TOOLNEXUS_COMPANION_TOKEN;
  const endpoint = new URL("/v1/requests", base);
  if (endpoint.protocol !== "http:") throw new CompanionError(`The companion listens on plain http on loopback, not ${endpoint.protocol}`);
  const agent = token ? provenAgent(token) : undefined;

  return (request, callOptions = {}) =>
    new Promise<Answer>((resolve, reject) => {
      if (!token) {
        reject(new CompanionError("No companion token: pass { token } or set TOOLNEXUS_COMPANION_TOKEN (see the companion's settings)."));
        return;
      }
      const body = JSON.stringify(request);
      // Proven with the token (the companion holds it too); asked with the agent's own credential.
      const headers: Record<string, string> = {
        authorization: `Bearer ${options.asAgent ? agentCredential(token, options.asAgent) : token}`,
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(body)),
      };
      if (options.agent) headers["x-agent-name"] = options.agent;
      // Aborting closes the connection, which the companion takes as "withdraw the question".
      const req = httpRequest(endpoint, { method: "POST", headers, agent, signal: callOptions.signal }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("close", () => {
          if (!res.complete) reject(new CompanionError("The companion closed the connection before answering (did it quit?)."));
        });
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            reject(new CompanionError(`The companion answered ${res.statusCode} with a body that is not JSON.`, res.statusCode));
            return;
          }
          if (res.statusCode === 200) {
            resolve(parsed as Answer);
            return;
          }
          const message = (parsed as { error?: { message?: string } }).error?.message ?? text;
          reject(new CompanionError(`The companion refused the request (${res.statusCode}): ${message}`, res.statusCode));
        });
      });
      req.on("error", (error: NodeJS.ErrnoException) => {
        if (error instanceof NotTheCompanion) {
          reject(new CompanionError(error.message));
        } else if (error.code === "ECONNREFUSED") {
          reject(new CompanionError(`The companion is not running at ${endpoint.origin} (connection refused). Start Toolnexus Companion and try again.`));
        } else {
          reject(error);
        }
      });
      req.end(body);
    });
}
