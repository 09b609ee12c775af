// The Tasks view's channels (tasks:list, tasks:cancel), served by the one handler map; the CLI's
// `tasks cancel` reaches the same handler over the page's socket. Cancelling is the source's
// (McpSource.cancelTask: tasks/cancel to the task's server); this file only checks the id and
// says in words why a task cannot be cancelled.
import type { HandlerMap, TasksInvokeMap } from "../../shared/contract";
import { isLiveTask, type TaskRecord, type TasksList } from "../../shared/tasks";
import { ArgumentError, HandlerError } from "../rpc/envelope";
import { defineHandlers } from "../rpc/handlers";
import { noArg } from "../rpc/validate";
import { isPlainObject, errorMessage } from "../../shared/unknown-value";

export type TasksHandlers = HandlerMap<TasksInvokeMap>;

export interface TasksHandlerDeps {
  list(): TasksList;
  get(id: string): TaskRecord | undefined;
  /** The person asked to cancel `id` (its History row says "by you"). */
  cancelling?(id: string): void;
  /** McpSource.cancelTask, when the source can cancel tasks; read per call. */
  cancel(): ((id: string) => Promise<void>) | undefined;
}

/** A task id as the companion makes them (`tsk-…`): short, and nothing a terminal or a log would mind. */
const TASK_ID = /^[A-Za-z0-9._:-]{1,128}$/;

function cancelArg(arg: unknown): string {
  if (!isPlainObject(arg) || typeof arg.id !== "string") throw new ArgumentError('tasks:cancel needs { id: "<task id>" }.');
  if (!TASK_ID.test(arg.id)) throw new ArgumentError("tasks:cancel: that is not a task id (the Tasks view and `toolnexus-companion tasks list` show them).");
  return arg.id;
}

export function createTasksHandlers(deps: TasksHandlerDeps): TasksHandlers {
  return defineHandlers<TasksInvokeMap>({
    "tasks:list": async (arg) => {
      noArg("tasks:list", arg);
      return deps.list();
    },
    "tasks:cancel": async (arg) => {
      const id = cancelArg(arg);
      const task = deps.get(id);
      if (!task) throw new HandlerError("unknown-task", `No task ${id} is followed by this companion.`);
      if (!isLiveTask(task.state)) throw new HandlerError("task-ended", `Task ${id} (${task.tool} on ${task.server}) has already ended: ${task.state}.`);
      const cancel = deps.cancel();
      if (!cancel) throw new HandlerError("cancel-unsupported", "This companion cannot cancel tasks yet: its server connections do not support tasks/cancel.");
      deps.cancelling?.(id);
      try {
        await cancel(id);
      } catch (error) {
        throw new HandlerError("cancel-failed", `Could not cancel ${task.tool} on ${task.server}: ${errorMessage(error)}`);
      }
      return deps.list();
    },
  });
}
