// The first run as main reports it (app:firstRun): no config file of the companion's own yet, and
// the path in use (shown in Settings and in the first-run panel). "Try a question" lives here too:
// it starts the shipped demo server and runs its form tool, so the question arrives at once.
import type { Call } from "./api";
import type { ServersState } from "./servers.svelte";
import type { ToolRuns } from "./tool-runs.svelte";

export const DEMO_SERVER = "demo";
export const DEMO_FORM_TOOL = "ask_coffee_order";
export const IMPORT_COMMAND = "toolnexus-companion servers import --dry-run";

export class FirstRunState {
  firstRun = $state(false);
  configPath = $state("");
  /** "" until "Try a question" fails; then why, in main's words. */
  tryError = $state("");
  trying = $state(false);
  /** What the first-run import did, shown atop the Servers view it moves to; "" once dismissed. */
  imported = $state("");

  constructor(
    private readonly call: Call,
    private readonly servers: ServersState,
    private readonly runs: ToolRuns,
  ) {}

  async load(): Promise<void> {
    const result = await this.call("app:firstRun");
    if (!result.ok) return;
    this.firstRun = result.value.firstRun;
    this.configPath = result.value.configPath;
  }

  /** The first-run import added servers: `note` says so atop the Servers view. */
  importDone(note: string): void {
    this.imported = note;
  }

  dismissImported(): void {
    this.imported = "";
  }

  /** A server was added by hand: the file exists now, so the first-run panel gives way to the list. */
  configWritten(): void {
    this.firstRun = false;
  }

  /** Starts the demo server, then runs its form tool: its question opens in the Inbox. */
  async tryQuestion(): Promise<void> {
    if (this.trying) return;
    this.trying = true;
    this.tryError = "";
    try {
      const started = await this.servers.tryDemo();
      if (!started.ok) {
        this.tryError = started.error.message;
        return;
      }
      const tool = started.value.find((s) => s.name === DEMO_SERVER)?.tools.find((t) => t.tool === DEMO_FORM_TOOL);
      if (!tool) {
        const demo = started.value.find((s) => s.name === DEMO_SERVER);
        this.tryError = demo?.error ? `The demo server did not start: ${demo.error}` : "The demo server started without its tools.";
        return;
      }
      void this.runs.run(tool.name, {});
    } finally {
      this.trying = false;
    }
  }
}
