// The Servers view's tool runner: check a tool's arguments as the Run form fills them, and run
// the tool. The page gets a bounded text of the result; the gateway (not these handlers)
// forwards results to agents whole.
import type { HandlerMap, InvokeMap } from "../../shared/contract";
import type { ToolRunResult } from "../../shared/types";
import { checkToolArguments, pageCheck } from "../../forms/check-answer";
import { ArgumentError, HandlerError } from "../rpc/envelope";
import { defineHandlers } from "../rpc/handlers";
import { objectArg, objectField, stringField } from "../rpc/validate";
import { isPlainObject } from "../../shared/unknown-value";
import { outputForPage, toToolOutput } from "./result";
import type { McpSource, McpTool } from "./types";

export type ToolChannel = "tools:run" | "tools:check";
export type ToolHandlers = HandlerMap<Pick<InvokeMap, ToolChannel>>;

export interface ToolHandlerDeps {
  /** The tools as the gateway lists them (every connected server's); read per call. */
  source: () => McpSource;
}

function toolNamed(source: McpSource, name: string): McpTool {
  const tool = source.tools.find((t) => t.name === name);
  if (!tool) throw new HandlerError("unknown-tool", `No connected server offers a tool named "${name}".`);
  return tool;
}

export function createToolHandlers(deps: ToolHandlerDeps): ToolHandlers {
  return defineHandlers<Pick<InvokeMap, ToolChannel>>({
    "tools:run": async (arg): Promise<ToolRunResult> => {
      const input = objectArg("tools:run", arg);
      const name = stringField("tools:run", input, "tool", 512);
      const args = input.args ?? {};
      if (!isPlainObject(args)) throw new ArgumentError('tools:run: "args" must be an object.');
      const result = toToolOutput(await toolNamed(deps.source(), name).execute(args));
      // The page gets a bounded text; the gateway (not this handler) forwards results whole.
      return { output: outputForPage(result.output), isError: result.isError };
    },

    "tools:check": async (arg) => {
      const input = objectArg("tools:check", arg);
      const name = stringField("tools:check", input, "tool", 512);
      const args = objectField("tools:check", input, "args");
      return pageCheck(checkToolArguments(toolNamed(deps.source(), name).inputSchema, args));
    },
  });
}
