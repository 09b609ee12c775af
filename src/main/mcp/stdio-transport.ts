// A stdio client transport whose child leads its own process group, so closing it ends the
// server and everything the server spawned (DESIGN.md §6: children must not outlive the app).
// The SDK's StdioClientTransport kills only the pid, which leaves grandchildren behind.
// Each group is announced to src/main/process/groups.ts while it lives, so that it also ends when
// the companion dies without closing it (the watchdog and the start-up reaper read that list).
import { spawn, type ChildProcess } from "node:child_process";
import { deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/client";
import { getDefaultEnvironment } from "@modelcontextprotocol/client/stdio";
import { MAX_SERVER_MESSAGE_BYTES } from "../limits";
import { LineSplitter, LineTooLongError } from "../line-splitter";
import { groupEnded, groupStarted } from "../process/groups";
import { groupExists, signalGroup } from "../process/identity";

export interface GroupStdioOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Grace between SIGTERM and SIGKILL on close. */
  killGraceMs?: number;
  /** Told when the server sent a line past MAX_SERVER_MESSAGE_BYTES (it is being stopped), so
   * the connection can fail with that reason (connection.ts, as for an HTTP body). */
  onTooLarge?: (error: Error) => void;
}

const STDERR_TAIL_LINES = 20;
const DEFAULT_KILL_GRACE_MS = 2000;

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child?: ChildProcess;
  private readonly lines = new LineSplitter(MAX_SERVER_MESSAGE_BYTES);
  private readonly stderrLines: string[] = [];
  private exit?: { code: number | null; signal: NodeJS.Signals | null };
  private closing = false;
  /** The server broke the line framing: nothing more it sends is read. */
  private refused = false;

  constructor(private readonly options: GroupStdioOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last lines the server wrote to stderr, for the failure message. */
  stderrTail(): string {
    return this.stderrLines.join("\n");
  }

  /** How the child ended, once it has. */
  exitInfo(): { code: number | null; signal: NodeJS.Signals | null } | undefined {
    return this.exit;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.options.command, this.options.args, {
        env: { ...getDefaultEnvironment(), ...this.options.env },
        cwd: this.options.cwd,
        stdio: ["pipe", "pipe", "pipe"],
        // Its own process group: `kill(-pid)` then reaches every descendant.
        detached: true,
        windowsHide: true,
      });
      this.child = child;
      child.once("error", (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.once("spawn", () => {
        // Windows: here the child would join the companion's kill-on-close Job Object (groups.ts).
        if (child.pid !== undefined) groupStarted(child.pid, [this.options.command, ...this.options.args].join(" "));
        resolve();
      });
      child.once("exit", (code, signal) => {
        this.exit = { code, signal };
        // On exit, not close: a leftover that inherited the pipes would hold off `close` forever.
        if (!this.closing && child.pid !== undefined) this.endLeftovers(child.pid);
      });
      child.once("close", () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.stdout?.on("data", (chunk: Buffer) => this.read(chunk));
      child.stdout?.on("error", (error) => this.onerror?.(error));
      child.stdin?.on("error", (error) => {
        // EPIPE after the child died is reported through close; anything else is news.
        if ((error as NodeJS.ErrnoException).code !== "EPIPE") this.onerror?.(error);
      });
      child.stderr?.setEncoding("utf8");
      child.stderr?.on("data", (text: string) => {
        for (const line of text.split("\n")) {
          if (line.trim() === "") continue;
          this.stderrLines.push(line.length > 500 ? `${line.slice(0, 500)}…` : line);
          if (this.stderrLines.length > STDERR_TAIL_LINES) this.stderrLines.shift();
        }
      });
    });
  }

  private read(chunk: Buffer): void {
    if (this.refused) return;
    let lines: string[];
    try {
      lines = this.lines.push(chunk);
    } catch (error) {
      if (!(error instanceof LineTooLongError)) throw error;
      // Nothing after an endless line can be trusted to start a message: stop the server, and
      // say why (supervision restarts it).
      this.refused = true;
      const reason = new Error(`the server ${error.message}, so the companion stopped it`);
      this.onerror?.(reason);
      this.options.onTooLarge?.(reason);
      void this.close();
      return;
    }
    for (const line of lines) {
      let message: JSONRPCMessage;
      try {
        message = deserializeMessage(line);
      } catch (error) {
        // A line that is not JSON (a server printing to stdout) is skipped, as the SDK does.
        if (!(error instanceof SyntaxError)) this.onerror?.(error as Error);
        continue;
      }
      this.onmessage?.(message);
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || stdin.destroyed) {
        reject(new Error("the server process is not running"));
        return;
      }
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once("drain", resolve);
    });
  }

  /** Ends the whole process group: stdin EOF, SIGTERM, then SIGKILL after a grace period. */
  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    const child = this.child;
    this.lines.clear();
    if (!child || child.pid === undefined) return;
    const pid = child.pid;
    const gone = new Promise<void>((resolve) => {
      if (this.child === undefined) resolve();
      else child.once("close", () => resolve());
    });
    child.stdin?.end();
    signalGroup(pid, "SIGTERM");
    const grace = this.options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
    const timer = setTimeout(() => signalGroup(pid, "SIGKILL"), grace);
    await gone;
    clearTimeout(timer);
    // The leader may exit on SIGTERM while a descendant ignores it: make sure the group is gone.
    signalGroup(pid, "SIGKILL");
    groupEnded(pid);
  }

  /**
   * The server exited on its own: what it left in its group (a grandchild it never waited for)
   * has no one to answer to any more. SIGTERM now, SIGKILL after the grace, then the group is
   * off the list. The timer does not hold the process open; if the companion exits first, the
   * watchdog, which still lists the group, finishes the job.
   */
  private endLeftovers(pid: number): void {
    if (!groupExists(pid)) {
      groupEnded(pid);
      return;
    }
    signalGroup(pid, "SIGTERM");
    const timer = setTimeout(() => {
      signalGroup(pid, "SIGKILL");
      groupEnded(pid);
    }, this.options.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
    timer.unref();
  }
}
