// The companion's PermissionRequest hook in an agent's hook settings, next to the hooks already
// there. Claude Code (code.claude.com/docs/en/hooks) and Codex (developers.openai.com/codex/hooks)
// share one schema: `hooks.<Event>` is a list of matcher groups `{ matcher, hooks: [{ type:
// "command", command, timeout }] }`; Claude Code keeps it in settings.json, Codex in hooks.json
// beside config.toml. We append one group of our own and, to remove, take out only the handlers
// whose command runs `toolnexus-companion hook <agent>` — never anyone else's.
import { appendAt, removeCandidates, setAt, valueAt, type JsonPath } from "./json-edit";
import { join } from "./paths";
import { pruneEmpty } from "./writer";
import type { Machine } from "./types";
import { isPlainObject } from "../../shared/unknown-value";

export type HookAgentId = "claude-code" | "codex";

/** Claude Code's own default for a command hook is 600 s (60 s in older releases); the hook's deadline is 55 s. */
export const HOOK_TIMEOUT_SECONDS = 60;
const EVENT: JsonPath = ["hooks", "PermissionRequest"];

export interface HookTarget {
  agent: HookAgentId;
  label: string;
  docs: string;
  files(machine: Machine, project?: string): string[];
}

const HOOK_TARGETS: readonly HookTarget[] = [
  {
    agent: "claude-code",
    label: "Claude Code",
    docs: "https://code.claude.com/docs/en/hooks",
    files: (machine, project) => [
      project ? join(machine, project, ".claude", "settings.json") : join(machine, machine.env.CLAUDE_CONFIG_DIR || join(machine, machine.home, ".claude"), "settings.json"),
    ],
  },
  {
    agent: "codex",
    label: "Codex",
    docs: "https://developers.openai.com/codex/hooks",
    files: (machine, project) => [project ? join(machine, project, ".codex", "hooks.json") : join(machine, machine.env.CODEX_HOME || join(machine, machine.home, ".codex"), "hooks.json")],
  },
];

export const hookTarget = (agent: string) => HOOK_TARGETS.find((t) => t.agent === agent);

/** The shell command the agent runs: the CLI's own words, quoted for the agent's shell. */
export function hookCommand(cli: { command: string; args: string[] }, agent: HookAgentId, platform: NodeJS.Platform = process.platform): string {
  const quote = (word: string) => {
    if (/^[A-Za-z0-9_@%+=:,./\\-]+$/.test(word)) return word;
    return platform === "win32" ? `"${word.replace(/"/g, '\\"')}"` : `'${word.replace(/'/g, "'\\''")}'`;
  };
  return [cli.command, ...cli.args, "hook", agent].map(quote).join(" ");
}

/** Whether a hook command is ours for `agent`: whatever path runs it, `toolnexus-companion[…] hook <agent>`. */
export function isOurHook(command: unknown, agent: HookAgentId): boolean {
  return typeof command === "string" && new RegExp(`toolnexus-companion(\\.cmd|\\.ps1)?['"]?\\s+hook\\s+${agent}(\\s|$)`).test(command);
}

/** Where our handlers are: [group index, handler index, command]. */
export function findOurHooks(text: string, agent: HookAgentId): Array<[number, number, string]> {
  const groups = text.trim() === "" ? undefined : valueAt(text, EVENT);
  if (!Array.isArray(groups)) return [];
  const found: Array<[number, number, string]> = [];
  groups.forEach((group, g) => {
    if (!isPlainObject(group) || !Array.isArray(group.hooks)) return;
    group.hooks.forEach((handler, h) => {
      if (isPlainObject(handler) && isOurHook(handler.command, agent)) found.push([g, h, handler.command as string]);
    });
  });
  return found;
}

export function installHook(text: string, agent: HookAgentId, command: string): string {
  const ours = findOurHooks(text, agent);
  if (ours.some(([, , c]) => c === command)) return text;
  // Ours, from another install path: point it at this one, where it is.
  if (ours.length > 0) return setAt(text, [...EVENT, ours[0][0], "hooks", ours[0][1], "command"], command);
  const events = text.trim() === "" ? undefined : valueAt(text, ["hooks"]);
  if (events !== undefined && !isPlainObject(events)) throw new Error('"hooks" is not an object of events');
  return appendAt(text, EVENT, { matcher: "*", hooks: [{ type: "command", command, timeout: HOOK_TIMEOUT_SECONDS }] });
}

/** Ways of removing our handlers (a group that held only ours goes with them), most likely first. */
export function removeHookCandidates(text: string, agent: HookAgentId): string[] {
  let current = [text];
  for (;;) {
    const ours = findOurHooks(current[0], agent);
    if (ours.length === 0) return current;
    const [g, h] = ours[ours.length - 1];
    const group = (valueAt(current[0], [...EVENT, g]) as { hooks: unknown[] }).hooks;
    const onlyOurs = group.every((handler) => isPlainObject(handler) && isOurHook(handler.command, agent));
    // An empty `"PermissionRequest": []` left behind and one that was there before read the same
    // once our group is back in; the file without it is by far the likelier, so it comes first.
    current = onlyOurs
      ? pruneEmpty(removeCandidates(current[0], [...EVENT, g]), EVENT).sort((a, b) => a.length - b.length)
      : removeCandidates(current[0], [...EVENT, g, "hooks", h]);
  }
}
