// A server card's one line: the command and its arguments as a person would type them in a shell
// (an argument with spaces or quotes is quoted), or the remote server's address. Main has already
// masked what may be a secret (ServerStatus.target).
import type { ServerTarget } from "../../shared/types";

function quoted(arg: string): string {
  if (arg !== "" && /^[\w@%+=:,./~•-]+$/u.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export function commandLine(target: ServerTarget): string {
  if (target.kind === "remote") return target.url;
  return [target.command, ...target.args].map(quoted).join(" ");
}
