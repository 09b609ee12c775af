// Tools run from the Servers view, kept here so leaving the view to answer a tool's question loses
// nothing, and which run asked which question (its result is shown beside the answer's note).
import type { PendingEntry } from "../../shared/types";
import type { Call } from "./api";
import type { ServersState } from "./servers.svelte";

export interface ToolRun {
  status: "running" | "done" | "failed";
  /** The server the tool belongs to, so a question it asks can be tied back to this run. */
  server?: string;
  output?: string;
  isError?: boolean;
  error?: string;
}

export class ToolRuns {
  /** Tool (full name) → its latest run. */
  runs = $state<Record<string, ToolRun>>({});
  /** Question id → the run (tool name) that was running on its server when it came. */
  #questionRun = new Map<string, string>();

  constructor(
    private readonly call: Call,
    private readonly servers: ServersState,
  ) {}

  of(tool: string): ToolRun | undefined {
    return this.runs[tool];
  }

  /** Runs a tool without blocking the page: its questions arrive in the Inbox meanwhile. */
  async run(tool: string, args: Record<string, unknown>): Promise<void> {
    const server = this.servers.serverOf(tool);
    this.runs[tool] = { status: "running", server };
    const result = await this.call("tools:run", { tool, args });
    this.runs[tool] = result.ok
      ? { status: "done", server, output: result.value.output, isError: result.value.isError }
      : { status: "failed", server, error: result.error.message };
  }

  /** A question arrived: remember the run that asked it, when the page can tell. */
  asked(entry: PendingEntry): void {
    const run = this.#runOn(entry);
    if (run) this.#questionRun.set(entry.request.id, run);
  }

  /** The run from the Servers view that asked question `id`, if the page can tell. */
  runFor(id: string): string | undefined {
    return this.#questionRun.get(id);
  }

  /**
   * The tool whose run asked this question: the one the entry names, else the one run running on
   * its server (with two or more running there the page cannot tell, and says nothing).
   */
  #runOn(entry: PendingEntry): string | undefined {
    const server = entry.source.server;
    if (!server) return undefined;
    const running = Object.entries(this.runs).filter(([, run]) => run.status === "running" && run.server === server);
    if (entry.source.tool) return running.find(([name]) => name.endsWith(`_${entry.source.tool}`))?.[0];
    return running.length === 1 ? running[0]![0] : undefined;
  }
}
