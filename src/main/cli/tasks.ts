// `toolnexus-companion tasks`: the work servers run in the background for the companion's calls
// (MCP tasks). `list` reads the tasks table of the history file, read-only as `history` does;
// `cancel` asks the running app, which owns the servers' connections, over its page's socket.
import { existsSync } from "node:fs";
import { parseArgs } from "node:util";
import { isLiveTask, type TaskRecord } from "../../shared/tasks";
import { defaultHistoryPath } from "../history/paths";
import { HistoryStore } from "../history/store";
import { readTasks } from "../history/tasks-store";
import { tasksList } from "../history/tasks-records";
import { callCompanion, NoCompanion } from "./page-call";
import { cell, complainer, errText, out, outJson } from "./print";
import { companionUrl, resolveToken } from "./resolve-token";

export const TASKS_USAGE = `Usage: toolnexus-companion tasks list [--json] [--db PATH]
       toolnexus-companion tasks cancel ID [--json]

  Work a server runs in the background for a call (MCP tasks): running ones first, then the
  recently ended (older ones are in \`history\`).
  list     Each task: its id, state, tool and server, who started it, for how long, its status.
  cancel   Ask the running companion to cancel task ID on its server (ids from \`tasks list\`).
  --json   list: one JSON object per line; cancel: the task as it is after.
  --db     The history file the tasks are kept in (default ${defaultHistoryPath()}).
`;

const complain = complainer("tasks");
function fail(message: string, code = 2): number {
  complain(message);
  return code;
}

function took(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}

function progressText(task: TaskRecord): string {
  const p = task.progress;
  if (!p) return "";
  return p.total ? `${Math.round((Math.min(p.progress, p.total) / p.total) * 100)}% ` : `${p.progress} done `;
}

function formatTasks(tasks: TaskRecord[], now: number): string {
  const rows = tasks.map((t) => [
    cell(t.id, 40),
    t.state,
    cell(t.tool, 28),
    cell(t.server, 20),
    cell(t.agent ?? "you", 16),
    isLiveTask(t.state) ? took(now - t.createdAt) : `took ${took((t.endedAt ?? now) - t.createdAt)}`,
    cell(progressText(t) + (isLiveTask(t.state) ? (t.statusMessage ?? "") : (t.outcome ?? t.statusMessage ?? "")) || "—", 60),
  ]);
  const header = ["ID", "STATE", "TOOL", "SERVER", "STARTED BY", "TIME", "STATUS"];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (row: string[]) => row.map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i]))).join("  ");
  return [line(header), ...rows.map(line)].join("\n");
}

function list(file: string, json: boolean): number {
  if (!existsSync(file)) {
    errText(`No tasks yet (${file} does not exist).\n`);
    return 0;
  }
  const store = new HistoryStore({ path: file, readonly: true, busyTimeoutMs: 2000 });
  try {
    const status = store.status();
    if (status.state !== "ok") return fail(`cannot read tasks: ${status.detail ?? "unavailable"}.`, 1);
    const { tasks } = tasksList(readTasks(store));
    if (json) for (const task of tasks) outJson(task);
    else if (tasks.length === 0) errText("No tasks: none running, none ended recently.\n");
    else out(formatTasks(tasks, Date.now()));
    return 0;
  } catch (error) {
    return fail(`cannot read tasks: ${(error as Error).message}`, 1);
  } finally {
    store.close();
  }
}

async function cancel(id: string, json: boolean): Promise<number> {
  const { token, why } = await resolveToken();
  if (!token) return fail(`no gateway token to reach the companion: ${why}.`, 1);
  let result;
  try {
    result = await callCompanion(companionUrl(), token, "tasks:cancel", { id });
  } catch (error) {
    if (error instanceof NoCompanion) return fail(`${error.message.replace(/\.$/, "")}; only the running companion can cancel a task.`, 1);
    throw error;
  }
  if (!result.ok) return fail(result.error.message, 1);
  const task = result.value.tasks.find((t) => t.id === id);
  if (json) outJson(task ?? { id });
  else out(task && isLiveTask(task.state) ? `Asked ${task.server} to cancel ${task.tool} (${id}).` : `Cancelled ${task ? `${task.tool} on ${task.server}` : "the task"} (${id}).`);
  return 0;
}

export async function runTasks(args: string[]): Promise<number> {
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args, options: { json: { type: "boolean" }, db: { type: "string" } }, strict: true, allowPositionals: true }));
  } catch (error) {
    return fail(`${(error as Error).message}\n\n${TASKS_USAGE}`);
  }
  const [sub, ...rest] = positionals;
  if (sub === "list" && rest.length === 0) return list(values.db ?? defaultHistoryPath(), values.json === true);
  if (sub === "cancel" && rest.length === 1 && values.db === undefined) return cancel(rest[0], values.json === true);
  if (sub === "cancel" && rest.length !== 1) return fail(`tasks cancel takes one task id (\`tasks list\` shows them).\n\n${TASKS_USAGE}`);
  return fail(sub ? `"${[sub, ...rest].join(" ")}" is not a tasks command.\n\n${TASKS_USAGE}` : TASKS_USAGE);
}
