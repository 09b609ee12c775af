// The gateway's task store on its own: statuses as the call runs, asks for the agent (the task
// is input_required while one waits), caps in all, a session's end, ttl held to the maximum.
import { afterEach, describe, expect, it } from "vitest";
import type { CallToolResult } from "@modelcontextprotocol/server";
import { AgentTasks, type TaskControl } from "../../../../src/main/gateway/agent-tasks";
import { until } from "../../../helpers/poll";

const stores: AgentTasks[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

function store(options: ConstructorParameters<typeof AgentTasks>[0] = {}): AgentTasks {
  const s = new AgentTasks(options);
  stores.push(s);
  return s;
}

/** A call the test ends by hand, with its control. */
function manual() {
  let control: TaskControl | undefined;
  let finish: (result: CallToolResult) => void = () => {};
  const run = (c: TaskControl) => {
    control = c;
    return new Promise<CallToolResult>((resolve, reject) => {
      finish = resolve;
      c.signal.addEventListener("abort", () => reject(c.signal.reason), { once: true });
    });
  };
  return { run, control: () => control!, finish: (result: CallToolResult) => finish(result) };
}

describe("AgentTasks", () => {
  it("runs working → input_required while the agent is asked → working → completed, keeping the result", async () => {
    const tasks = store();
    const call = manual();
    const task = tasks.start("s1", call.run);
    if (typeof task === "string") throw new Error(task);
    expect(task.status).toBe("working");
    await until(() => call.control() !== undefined);
    call.control().status("step 1");
    expect(task.statusMessage).toBe("step 1");

    const answered = call.control().ask({ method: "elicitation/create", params: { message: "Which?" } }, new AbortController().signal);
    expect(task.status).toBe("input_required");
    const [input] = [...task.inputs.values()];
    expect(input).toMatchObject({ key: "input-1", method: "elicitation/create", params: { message: "Which?" }, delivered: false });
    input.answer({ action: "accept", content: { which: "a" } });
    await expect(answered).resolves.toEqual({ action: "accept", content: { which: "a" } });
    expect(task.status).toBe("working");
    expect(task.inputs.size).toBe(0);

    call.finish({ content: [{ type: "text", text: "done" }] });
    await until(() => task.status === "completed");
    expect(task.result).toEqual({ content: [{ type: "text", text: "done" }] });
    expect(task.statusMessage).toBe("step 1");
  });

  it("an isError result completes the task with it, its text as the statusMessage; a call that throws fails it; cancel fails what waits on the agent", async () => {
    const tasks = store();
    const erring = tasks.start("s1", async () => ({ content: [{ type: "text", text: "no such file" }], isError: true }));
    const throwing = tasks.start("s1", async () => {
      throw new Error("the server went away");
    });
    if (typeof erring === "string" || typeof throwing === "string") throw new Error("refused");
    await until(() => erring.status === "completed" && throwing.status === "failed");
    expect(erring).toMatchObject({ statusMessage: "no such file", result: { isError: true } });
    expect(throwing).toMatchObject({ statusMessage: "the server went away", result: undefined });

    const call = manual();
    const waiting = tasks.start("s1", call.run);
    if (typeof waiting === "string") throw new Error(waiting);
    await until(() => call.control() !== undefined);
    const asked = call.control().ask({ method: "roots/list", params: {} }, new AbortController().signal);
    expect(tasks.cancel(waiting)).toBe(true);
    await expect(asked).rejects.toThrow(/cancelled/);
    expect(call.control().signal.aborted).toBe(true);
    expect(waiting.status).toBe("cancelled");
    expect(tasks.cancel(waiting)).toBe(false);
  });

  it("finds a task only for the session that made it; a session's end cancels and drops its tasks", async () => {
    const tasks = store();
    const call = manual();
    const task = tasks.start("s1", call.run);
    if (typeof task === "string") throw new Error(task);
    expect(tasks.find("s2", task.id)).toBeUndefined();
    expect(tasks.list("s2")).toEqual([]);
    expect(tasks.find("s1", task.id)).toBe(task);
    await until(() => call.control() !== undefined);
    tasks.dropOwner("s1");
    expect(call.control().signal.aborted).toBe(true);
    expect(tasks.find("s1", task.id)).toBeUndefined();
  });

  it("refuses past the cap in all, naming it, and makes room by dropping the oldest ended task", async () => {
    const tasks = store({ total: 2 });
    const quick = tasks.start("s1", async () => ({ content: [] }));
    const slow = manual();
    tasks.start("s2", slow.run);
    if (typeof quick === "string") throw new Error(quick);
    await until(() => quick.status === "completed");
    const third = tasks.start("s3", manual().run);
    expect(typeof third).not.toBe("string");
    expect(tasks.find("s1", quick.id)).toBeUndefined();
    expect(tasks.start("s3", manual().run)).toMatch(/MAX_AGENT_TASKS_TOTAL/);
  });

  it("holds an agent's ttl to the maximum, and ignores one that is not a number of ms", () => {
    const tasks = store({ ttlMs: 1000, maxTtlMs: 5000 });
    const long = tasks.start("s1", manual().run, 10 ** 9);
    const odd = tasks.start("s1", manual().run, -5);
    if (typeof long === "string" || typeof odd === "string") throw new Error("refused");
    expect(long.ttlMs).toBe(5000);
    expect(odd.ttlMs).toBe(1000);
    expect(long.id).toMatch(/^gwt-[A-Za-z0-9_-]{24}$/);
    expect(long.id).not.toBe(odd.id);
  });
});
