// The servers' resources, resource templates and prompts as one agent sees them, and the way
// back: which server owns a URI or a prompt name. Shared by every session of the gateway.
//
// Naming follows tools: prompts are `<server>_<prompt>`. Resource URIs stay as the server gave
// them; when two servers list the same URI (or template), the first in config order keeps it and
// the later one's is listed as `toolnexus+<server>:<uri>`, its name saying which server it is
// from, so nothing is shadowed silently and either can be read.
import { sanitize } from "../mcp/config/config";
import type { McpBackend } from "../mcp/types";
import { errorMessage } from "../../shared/unknown-value";

/** Pages fetched per server per list: a server that pages forever cannot hold a list open. */
const MAX_PAGES = 20;
const PREFIX = "toolnexus+";

type Item = Record<string, unknown>;

export interface Owned {
  backend: McpBackend;
  /** The URI or name on its own server. */
  original: string;
}

export type CapabilityName = "resources" | "prompts" | "completions" | "logging";

const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];

/** Index of a log level (unknown levels count as the most severe: always passed on). */
export function levelRank(level: unknown): number {
  const index = LEVELS.indexOf(String(level));
  return index === -1 ? LEVELS.length : index;
}

function clashUri(server: string, uri: string): string {
  return `${PREFIX}${sanitize(server)}:${uri}`;
}

/** `test://template/{id}/data` → a matcher for URIs it expands to (RFC 6570, simple and reserved forms). */
function templateMatcher(template: string): RegExp {
  let pattern = "";
  for (const part of template.split(/(\{[^}]*\})/)) {
    if (part.startsWith("{") && part.endsWith("}")) {
      const op = part[1];
      pattern += op === "+" || op === "#" ? ".*" : op === "?" || op === "&" ? "(?:[?&].*)?" : "[^/?#]*";
    } else {
      pattern += part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    }
  }
  return new RegExp(`^${pattern}$`);
}

export class Catalog {
  /** Public URI → owner, from the latest lists (and reads that found their server). */
  private readonly uris = new Map<string, Owned>();
  private templates: Array<{ match: RegExp; owner: Owned }> = [];
  private readonly prompts = new Map<string, Owned>();
  /** `<server>\0<uri>` → sessions subscribed (the server is subscribed once). */
  private readonly subscriptions = new Map<string, Set<string>>();
  /** Session → the level it asked for. */
  private readonly levels = new Map<string, string>();

  constructor(
    private readonly backends: () => McpBackend[],
    private readonly log: (line: string) => void,
  ) {}

  /**
   * Connected servers that offer `capability` in the era they negotiated: a 2026-07-28 server
   * that still declares logging or subscribe has no logging/setLevel or resources/subscribe.
   */
  offering(capability: CapabilityName | "subscribe"): McpBackend[] {
    return this.backends().filter((b) => {
      const caps = b.capabilities();
      if (!caps) return false;
      if (capability === "subscribe") return !!(caps.resources as { subscribe?: boolean } | undefined)?.subscribe && b.offers("resources/subscribe");
      if (capability === "logging") return caps.logging !== undefined && b.offers("logging/setLevel");
      return caps[capability] !== undefined;
    });
  }

  /** What the agent is told at initialize: the union of what the servers offer. */
  capabilities(): Record<string, unknown> {
    const caps: Record<string, unknown> = {};
    if (this.offering("resources").length > 0) caps.resources = { listChanged: true, ...(this.offering("subscribe").length > 0 ? { subscribe: true } : {}) };
    if (this.offering("prompts").length > 0) caps.prompts = { listChanged: true };
    if (this.offering("completions").length > 0) caps.completions = {};
    if (this.offering("logging").length > 0) caps.logging = {};
    return caps;
  }

  /** Every page of one list from one server, bounded. A failing server is left out, with a log line. */
  private async listAll(backend: McpBackend, method: string, key: string, signal?: AbortSignal): Promise<Item[]> {
    const items: Item[] = [];
    let cursor: string | undefined;
    try {
      for (let page = 0; page < MAX_PAGES; page++) {
        const result = await backend.forward(method, cursor ? { cursor } : undefined, { signal });
        const listed = result[key];
        if (Array.isArray(listed)) items.push(...(listed as Item[]));
        cursor = typeof result.nextCursor === "string" ? result.nextCursor : undefined;
        if (!cursor) break;
      }
    } catch (error) {
      if (signal?.aborted) throw error;
      this.log(`gateway: ${method} from ${backend.name} failed: ${errorMessage(error)}`);
    }
    return items;
  }

  private async gather(method: string, key: string, signal?: AbortSignal): Promise<Array<{ backend: McpBackend; items: Item[] }>> {
    const backends = this.offering(method.startsWith("prompts") ? "prompts" : "resources");
    return Promise.all(backends.map(async (backend) => ({ backend, items: await this.listAll(backend, method, key, signal) })));
  }

  async listResources(signal?: AbortSignal): Promise<Item[]> {
    const out: Item[] = [];
    const seen = new Map<string, Owned>();
    for (const { backend, items } of await this.gather("resources/list", "resources", signal)) {
      for (const item of items) {
        if (typeof item.uri !== "string") continue;
        let uri = item.uri;
        let shown = item;
        if (seen.has(uri) && seen.get(uri)!.backend !== backend) {
          uri = clashUri(backend.name, item.uri);
          shown = { ...item, uri, name: `${String(item.name ?? item.uri)} (from ${backend.name})` };
        }
        seen.set(uri, { backend, original: item.uri });
        out.push(shown);
      }
    }
    for (const [uri, owner] of seen) this.uris.set(uri, owner);
    return out;
  }

  async listTemplates(signal?: AbortSignal): Promise<Item[]> {
    const out: Item[] = [];
    const seen = new Set<string>();
    const templates: Array<{ match: RegExp; owner: Owned }> = [];
    for (const { backend, items } of await this.gather("resources/templates/list", "resourceTemplates", signal)) {
      for (const item of items) {
        if (typeof item.uriTemplate !== "string") continue;
        let shown = item;
        if (seen.has(item.uriTemplate)) {
          const uriTemplate = clashUri(backend.name, item.uriTemplate);
          shown = { ...item, uriTemplate, name: `${String(item.name ?? item.uriTemplate)} (from ${backend.name})` };
        }
        seen.add(item.uriTemplate);
        templates.push({ match: templateMatcher(item.uriTemplate), owner: { backend, original: item.uriTemplate } });
        out.push(shown);
      }
    }
    this.templates = templates;
    return out;
  }

  /**
   * The server that owns `uri` and the URI on it: a prefixed URI names its server; else the latest
   * lists say; else the first template it fits; else, with one server offering resources, that one.
   */
  async resolveUri(uri: string, signal?: AbortSignal): Promise<Owned | undefined> {
    if (uri.startsWith(PREFIX)) {
      const colon = uri.indexOf(":", PREFIX.length);
      const server = uri.slice(PREFIX.length, colon);
      const backend = colon > 0 ? this.offering("resources").find((b) => sanitize(b.name) === server) : undefined;
      if (backend) return { backend, original: uri.slice(colon + 1) };
    }
    const find = (): Owned | undefined => {
      const listed = this.uris.get(uri);
      if (listed) return listed;
      const template = this.templates.find((t) => t.match.test(uri));
      return template ? { backend: template.owner.backend, original: uri } : undefined;
    };
    let owner = find();
    if (!owner) {
      await Promise.all([this.listResources(signal), this.listTemplates(signal)]);
      owner = find();
    }
    if (owner?.backend.capabilities()) return owner;
    const offering = this.offering("resources");
    return offering.length === 1 ? { backend: offering[0], original: uri } : undefined;
  }

  /** The server of a template (completion's ref/resource), as listed or prefixed. */
  async resolveTemplate(uriTemplate: string, signal?: AbortSignal): Promise<Owned | undefined> {
    if (uriTemplate.startsWith(PREFIX)) return this.resolveUri(uriTemplate, signal);
    const find = () => this.templates.find((t) => t.owner.original === uriTemplate)?.owner;
    if (!find()) await this.listTemplates(signal);
    const owner = find();
    return owner?.backend.capabilities() ? owner : this.resolveUri(uriTemplate, signal);
  }

  async listPrompts(signal?: AbortSignal): Promise<Item[]> {
    const out: Item[] = [];
    this.prompts.clear();
    for (const { backend, items } of await this.gather("prompts/list", "prompts", signal)) {
      for (const item of items) {
        if (typeof item.name !== "string") continue;
        const name = `${sanitize(backend.name)}_${sanitize(item.name)}`;
        // As with tools: two servers whose names sanitize alike must not shadow each other silently.
        if (this.prompts.has(name)) {
          this.log(`gateway: prompt ${name} of ${backend.name} is hidden by ${this.prompts.get(name)!.backend.name}'s`);
          continue;
        }
        this.prompts.set(name, { backend, original: item.name });
        out.push({ ...item, name });
      }
    }
    return out;
  }

  async resolvePrompt(name: string, signal?: AbortSignal): Promise<Owned | undefined> {
    if (!this.prompts.has(name)) await this.listPrompts(signal);
    const owner = this.prompts.get(name);
    return owner?.backend.capabilities() ? owner : undefined;
  }

  /** Subscribes the session; the server is asked only for the first subscriber of a URI. */
  async subscribe(session: string, owner: Owned, signal?: AbortSignal): Promise<void> {
    const key = `${owner.backend.name}\0${owner.original}`;
    let sessions = this.subscriptions.get(key);
    if (!sessions) {
      await owner.backend.forward("resources/subscribe", { uri: owner.original }, { signal });
      sessions = this.subscriptions.get(key) ?? new Set();
      this.subscriptions.set(key, sessions);
    }
    sessions.add(session);
  }

  async unsubscribe(session: string, owner: Owned, signal?: AbortSignal): Promise<void> {
    const key = `${owner.backend.name}\0${owner.original}`;
    const sessions = this.subscriptions.get(key);
    if (!sessions?.delete(session) || sessions.size > 0) return;
    this.subscriptions.delete(key);
    await owner.backend.forward("resources/unsubscribe", { uri: owner.original }, { signal });
  }

  /** The sessions subscribed to a server's URI, and the URI they know it by. */
  subscribers(server: string, uri: string): { sessions: Set<string>; uri: string } | undefined {
    const sessions = this.subscriptions.get(`${server}\0${uri}`);
    if (!sessions) return undefined;
    for (const [publicUri, owner] of this.uris) {
      if (owner.backend.name === server && owner.original === uri) return { sessions, uri: publicUri };
    }
    return { sessions, uri };
  }

  /** The session's level; servers are set to the most verbose any session asked for. */
  async setLevel(session: string, level: string, signal?: AbortSignal): Promise<void> {
    this.levels.set(session, level);
    await this.applyLevels(signal);
  }

  level(session: string): string | undefined {
    return this.levels.get(session);
  }

  private async applyLevels(signal?: AbortSignal): Promise<void> {
    if (this.levels.size === 0) return;
    const level = [...this.levels.values()].reduce((a, b) => (levelRank(a) <= levelRank(b) ? a : b));
    await Promise.all(
      this.offering("logging").map((b) =>
        b.forward("logging/setLevel", { level }, { signal }).catch((error: unknown) => {
          this.log(`gateway: logging/setLevel on ${b.name} failed: ${errorMessage(error)}`);
        }),
      ),
    );
  }

  /** A session ended: its subscriptions and level go with it. */
  dropSession(session: string): void {
    this.levels.delete(session);
    for (const [key, sessions] of this.subscriptions) {
      if (!sessions.delete(session) || sessions.size > 0) continue;
      this.subscriptions.delete(key);
      const [server, uri] = key.split("\0");
      const backend = this.backends().find((b) => b.name === server);
      void backend?.forward("resources/unsubscribe", { uri }).catch(() => {});
    }
  }
}
