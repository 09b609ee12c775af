// The line protocol every interop agent speaks with the test that spawns it. The test writes one
// JSON request per line on stdin ({ id, op, ...args }); the agent answers each on stdout as a line
// starting with MARK ({ id, ok, result | error, ms }) and reports what the library delivered to it
// on its own (progress, logs, the server's questions) as { event, ... } lines. Only MARK lines are
// protocol: the libraries print their own chatter to stdout too, which the test ignores.
import { createInterface } from "node:readline";

export const MARK = "@@interop ";

export function emit(message) {
  process.stdout.write(MARK + JSON.stringify(message) + "\n");
}

/**
 * What the agent answers when the server (through the companion, or directly) asks it something.
 * The test sets these with the `configure` op before the call that makes the server ask.
 */
export const policy = {
  /** ElicitResult to return, or "throw" to fail the request (the companion then asks its person). */
  elicit: { action: "decline" },
  roots: [],
  sampling: { role: "assistant", model: "interop-model", content: { type: "text", text: "sampled by the agent" } },
};

/** An error as plain data: libraries wrap the MCP error; keep its code and message. */
export function errorData(error) {
  const e = error ?? {};
  const code = typeof e.code === "number" ? e.code : typeof e.cause?.code === "number" ? e.cause.code : undefined;
  return { message: String(e.message ?? e), ...(code === undefined ? {} : { code }), ...(e.data === undefined ? {} : { data: e.data }) };
}

/** Runs `ops[op](request)` for each line; `configure` and `exit` are handled here. */
export function serve(ops) {
  const lines = createInterface({ input: process.stdin });
  lines.on("line", async (line) => {
    let request;
    try {
      request = JSON.parse(line);
    } catch {
      return;
    }
    const { id, op } = request;
    if (op === "configure") {
      Object.assign(policy, request.policy ?? {});
      emit({ id, ok: true, result: {} });
      return;
    }
    if (op === "exit") {
      try {
        await ops.close?.();
      } finally {
        emit({ id, ok: true, result: {} });
        process.exit(0);
      }
    }
    const work = ops[op];
    if (!work) {
      emit({ id, ok: false, error: { message: `this agent has no op ${op}`, unsupported: true } });
      return;
    }
    const started = performance.now();
    try {
      const result = await work(request);
      emit({ id, ok: true, result: result ?? {}, ms: performance.now() - started });
    } catch (error) {
      emit({ id, ok: false, error: errorData(error), ms: performance.now() - started });
    }
  });
  lines.on("close", async () => {
    await ops.close?.().catch(() => {});
    process.exit(0);
  });
  emit({ event: "ready", node: process.version });
}

/** The agent's answer to a server's elicitation, reported to the test as an event first. */
export function answerElicitation(params) {
  emit({ event: "elicitation", params });
  if (policy.elicit === "throw") throw new Error("this agent leaves the question to the companion's person");
  return policy.elicit;
}

export function answerSampling(params) {
  emit({ event: "sampling", params });
  return policy.sampling;
}

export function answerRoots() {
  emit({ event: "roots" });
  return { roots: policy.roots };
}
