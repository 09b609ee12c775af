// The servers view as pages see it, one server at a time. Each server's view (status and tool
// summaries, scrubbed) is computed when someone reads it and kept until that server's own event
// says it changed, so one server's event costs the same with ten servers or two thousand; only
// reading the whole list walks every server, and that happens when a page asks or is told.
import type { ServerView } from "../../shared/types";
import type { ToolInfo, ToolSummary } from "../../shared/types";
import { MAX_TOOL_DESCRIPTION_IN_LIST, MAX_TOOL_DESCRIPTION_TO_PAGE } from "../../shared/limits";
import type { ServerIndex } from "./source";
import type { McpSource, McpTool } from "./types";

/** The name under which a whole-file config error shows in the servers view. */
export const CONFIG_ERROR_ENTRY = "MCP config";

export interface ServerViewsDeps {
  source: McpSource & ServerIndex;
  /** The config file's error while the last good config is kept. */
  configError: () => string | undefined;
  /** The one scrubbing layer: status errors quote what servers answered, and servers echo headers. */
  scrub: <T>(value: T) => T;
  /** Changes when a new secret is registered: every kept view is scrubbed again then. */
  scrubGeneration: () => number;
}

function cut(text: string, max: number): { text: string; cut: boolean } {
  return text.length > max ? { text: text.slice(0, max), cut: true } : { text, cut: false };
}

/** A tool's names and title, and its description cut to `max` characters. */
function described(tool: McpTool, max: number): ToolSummary {
  const description = cut(tool.description, max);
  return {
    name: tool.name,
    server: tool.server,
    tool: tool.tool,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: description.text,
    ...(description.cut ? { descriptionCut: true as const } : {}),
  };
}

export function toolSummary(tool: McpTool): ToolSummary {
  return described(tool, MAX_TOOL_DESCRIPTION_IN_LIST);
}

/** One tool whole for a page; its schema is bounded where it is listed (MAX_TOOL_SCHEMA_BYTES). */
export function toolWhole(tool: McpTool): ToolInfo {
  return { ...described(tool, MAX_TOOL_DESCRIPTION_TO_PAGE), inputSchema: tool.inputSchema };
}

export class ServerViews {
  private readonly cache = new Map<string, ServerView>();
  private generation: number;

  constructor(private readonly deps: ServerViewsDeps) {
    this.generation = deps.scrubGeneration();
  }

  /** That server's event came: its view is computed again when next read. */
  invalidate(name: string): void {
    this.cache.delete(name);
  }

  /** A tools change of `name`: its list, and the lists of servers whose tool names clash with it. */
  invalidateTools(name: string): void {
    this.cache.delete(name);
    for (const other of this.deps.source.sharingTools(name)) this.cache.delete(other);
  }

  /** One server's view, scrubbed; undefined for a name no server has. */
  view(name: string): ServerView | undefined {
    this.checkGeneration();
    let view = this.cache.get(name);
    if (view) return view;
    const status = this.deps.source.serverStatus(name);
    if (!status) return undefined;
    view = this.deps.scrub({ ...status, tools: this.deps.source.toolsOf(name).map(toolSummary) });
    this.cache.set(name, view);
    return view;
  }

  list(): ServerView[] {
    this.checkGeneration();
    const names = this.deps.source.serverNames();
    const views: ServerView[] = [];
    const live = new Set<string>();
    for (const name of names) {
      const view = this.view(name);
      if (view) views.push(view);
      live.add(name);
    }
    // Servers removed since: their views go too.
    if (this.cache.size > live.size) for (const name of this.cache.keys()) if (!live.has(name)) this.cache.delete(name);
    const fileError = this.deps.configError();
    if (fileError) views.unshift(this.deps.scrub({ name: CONFIG_ERROR_ENTRY, state: "failed", error: fileError, toolCount: 0, tools: [] }));
    return views;
  }

  private checkGeneration(): void {
    const generation = this.deps.scrubGeneration();
    if (generation === this.generation) return;
    this.generation = generation;
    this.cache.clear();
  }
}

/**
 * Tells listeners the list changed: never more than once per `intervalMs` however many events
 * arrive (the first change goes out on the next turn of the event loop), and not at all while
 * nobody listens (`listening()`), so a companion with no page open builds no list.
 */
export function listChangeNotifier(options: { intervalMs: number; listening: () => boolean; send: () => void }): { changed(): void; close(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let immediate: ReturnType<typeof setImmediate> | undefined;
  let lastSent = -Infinity;
  let closed = false;
  const fire = () => {
    timer = undefined;
    immediate = undefined;
    if (closed || !options.listening()) return;
    lastSent = performance.now();
    options.send();
  };
  return {
    changed() {
      if (closed || timer || immediate || !options.listening()) return;
      const wait = lastSent + options.intervalMs - performance.now();
      if (wait <= 0) immediate = setImmediate(fire);
      else {
        timer = setTimeout(fire, wait);
        timer.unref?.();
      }
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
    },
  };
}
