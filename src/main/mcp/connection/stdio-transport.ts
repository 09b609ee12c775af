// A stdio client transport whose child leads its own process group, so closing it ends the
// server and everything the server spawned (children must not outlive the app: src/main/process/).
// The SDK's StdioClientTransport kills only the pid, which leaves grandchildren behind.
// Each group is announced to src/main/process/groups.ts while it lives, so that it also ends when
// the companion dies without closing it (the watchdog and the start-up reaper read that list).
import { spawn, type ChildProcess } from "node:child_process";
import { deserializeMessage, serializeMessage, type JSONRPCMessage, type Transport } from "@modelcontextprotocol/client";
import { getDefaultEnvironment } from "@modelcontextprotocol/client/stdio";
import { MAX_PEER_QUEUED_BYTES, MAX_SERVER_MESSAGE_BYTES, PEER_DRAIN_DEADLINE_MS } from "../../../shared/limits";
import { mebibytes, WriteBound } from "../../base/write-bound";
import { LineSplitter, LineTooLongError } from "../../base/line-splitter";
import { groupEnded, groupStarted } from "../../process/groups";
import { groupExists, signalGroup } from "../../process/identity";

export interface GroupStdioOptions {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Grace between SIGTERM and SIGKILL on close. */
  killGraceMs?: number;
  /** Told when the companion stops the server for breaking a bound of its pipes: a line past
   * MAX_SERVER_MESSAGE_BYTES on stdout, or more input waiting on its stdin than it reads (see
   * `send`), so the connection can fail with that reason (lifecycle.ts, as for an HTTP body). */
  onTooLarge?: (error: Error) => void;
  /** Bytes that may wait on the server's stdin before one more message; default MAX_PEER_QUEUED_BYTES. */
  maxQueuedBytes?: number;
  /** A full stdin must drain within this; default PEER_DRAIN_DEADLINE_MS. */
  drainDeadlineMs?: number;
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
  private stderrDone: () => void = () => {};
  private readonly stderrEnded = new Promise<void>((resolve) => (this.stderrDone = resolve));
  private exit?: { code: number | null; signal: NodeJS.Signals | null };
  private closing = false;
  /** The server broke the line framing: nothing more it sends is read. */
  private refused = false;
  /** Its stdin, bounded: a server that stops reading is stopped, not fed without end. */
  private input?: WriteBound;
  /** Sends waiting for stdin to drain; they fail with the reason if the server is stopped. */
  private readonly waiting = new Set<{ resolve: () => void; reject: (error: Error) => void }>();
  private stopReason?: Error;

  constructor(private readonly options: GroupStdioOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last lines the server wrote to stderr, for the failure message. */
  stderrTail(): string {
    return this.stderrLines.join("\n");
  }

  /**
   * Resolves once the child has exited and its pipes are read to the end, or after `ms`: a server
   * that dies at start fails its connect (its stdin closes) before its exit and the last of its
   * stderr are known, and the failure message should say both.
   */
  outputSettled(ms: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return Promise.race([this.stderrEnded, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]).finally(() => clearTimeout(timer));
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
        // Exited, and every pipe read to its end: what it said and how it ended are both known.
        this.stderrDone();
        this.child = undefined;
        this.onclose?.();
      });
      child.stdout?.on("data", (chunk: Buffer) => this.read(chunk));
      child.stdout?.on("error", (error) => this.onerror?.(error));
      if (child.stdin) this.watchInput(child.stdin);
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
      this.stop(new Error(`the server ${error.message}, so the companion stopped it`));
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

  /** Bytes written to the server's stdin that it has not read yet. */
  queuedBytes(): number {
    return this.input?.queuedBytes() ?? 0;
  }

  /**
   * Writes one message; resolves once the pipe took it (at once, or on 'drain'). Every message the
   * companion sends a server passes here (calls, answers, progress, cancel and ping notifications),
   * so this is where a server that stops reading its stdin is caught: past the bound of queued
   * bytes, or a full pipe that does not drain within the deadline, the server is stopped with the
   * reason, and every send still waiting fails with it.
   */
  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (this.stopReason) return reject(this.stopReason);
      if (!stdin || stdin.destroyed) return reject(new Error("the server process is not running"));
      if (this.input && !this.input.admit()) return reject(this.stopReason ?? new Error("the server stopped reading its input"));
      const accepted = stdin.write(serializeMessage(message));
      this.input?.wrote(accepted);
      if (accepted) return resolve();
      this.waiting.add({ resolve, reject });
    });
  }

  private watchInput(stdin: NonNullable<ChildProcess["stdin"]>): void {
    this.input = new WriteBound(stdin, {
      maxQueuedBytes: this.options.maxQueuedBytes ?? MAX_PEER_QUEUED_BYTES,
      drainDeadlineMs: this.options.drainDeadlineMs ?? PEER_DRAIN_DEADLINE_MS,
      onStall: ({ queuedBytes, why }) => {
        const seconds = (this.options.drainDeadlineMs ?? PEER_DRAIN_DEADLINE_MS) / 1000;
        const detail = why === "bytes" ? `${mebibytes(queuedBytes)} waiting` : `${mebibytes(queuedBytes)} waiting for ${seconds} s`;
        this.stop(new Error(`stopped: it stopped reading its input (${detail})`));
      },
    });
    stdin.on("drain", () => this.settleWaiting());
    stdin.once("close", () => this.settleWaiting(this.stopReason ?? new Error("the server process is not running")));
  }

  private settleWaiting(error?: Error): void {
    const waiting = [...this.waiting];
    this.waiting.clear();
    for (const w of waiting) (error ? w.reject(error) : w.resolve());
  }

  /** The companion ends the server for breaking a bound: say why, then stop it (supervision restarts it). */
  private stop(reason: Error): void {
    if (this.stopReason) return;
    this.stopReason = reason;
    this.settleWaiting(reason);
    this.onerror?.(reason);
    this.options.onTooLarge?.(reason);
    void this.close();
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
