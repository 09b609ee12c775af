// `--agent NAME` (or `--agent=NAME`), the only argument of `connect` and `token`: which agent's
// own credential to use (http/agent-credential.ts). Undefined when not given.
import { AGENT_CREDENTIAL_NAME } from "../http/agent-credential";

export function agentArg(args: string[]): string | undefined | Error {
  if (args.length === 0) return undefined;
  const [first, second, ...rest] = args;
  const name = first!.startsWith("--agent=") ? first!.slice("--agent=".length) : first === "--agent" ? second : undefined;
  const extra = first!.startsWith("--agent=") ? [second, ...rest].filter((a) => a !== undefined) : rest;
  if (name === undefined || extra.length > 0) return new Error("takes only --agent NAME");
  if (!AGENT_CREDENTIAL_NAME.test(name)) return new Error(`"${name}" is not an agent name (lowercase letters, digits, . _ -; at most 64)`);
  return name;
}
