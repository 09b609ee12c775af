// Each client's variable syntax, rewritten into the companion's own (`${VAR}`, `${VAR:-default}`,
// `${input:ID}`; see findReferences in src/main/mcp/config/references.ts). A reference stays a reference:
// import never writes the value of an environment variable or a secret into the companion's file;
// the companion reads the variable when it starts the server. What the companion cannot resolve
// (VS Code's `${command:…}`, Windsurf's `${file:…}`, `${workspaceFolder}` outside a workspace)
// fails the import of that server, naming the variable.
import type { InputMeta, Machine } from "./types";
import { pathApi } from "./paths";

export type Dialect = "vscode" | "windsurf" | "opencode" | "claude-code" | "gemini" | "literal";

export class UnresolvedVariable extends Error {
  constructor(
    readonly variable: string,
    why: string,
  ) {
    super(`uses ${variable}, ${why}`);
    this.name = "UnresolvedVariable";
  }
}

export interface TranslateContext {
  machine: Machine;
  /** The workspace/project folder, when the file belongs to one. */
  workspace?: string;
  /** `${input:ID}` ids met while translating, for the entry's `inputs` metadata. */
  usedInputs: Set<string>;
  /** The file's `inputs` (VS Code), by id. */
  inputs: Map<string, InputMeta>;
}

const NAME = "[A-Za-z_][A-Za-z0-9_]*";

/** VS Code's and Cursor's `${…}` variables (code.visualstudio.com/docs/reference/variables-reference). */
function vscode(value: string, ctx: TranslateContext): string {
  return value.replace(/\$\{([^{}]*)\}/g, (whole, inner: string) => {
    let m: RegExpExecArray | null;
    if ((m = new RegExp(`^env:(${NAME})$`).exec(inner))) return `\${${m[1]}}`;
    if ((m = /^input:(.+)$/.exec(inner))) {
      ctx.usedInputs.add(m[1]);
      return whole;
    }
    const path = pathApi(ctx.machine);
    switch (inner) {
      case "userHome":
        return ctx.machine.home;
      case "pathSeparator":
      case "/":
        return path.sep;
      case "workspaceFolder":
      case "workspaceRoot":
        if (!ctx.workspace) throw new UnresolvedVariable(whole, "which has a value only in a workspace; this file is not a workspace's");
        return ctx.workspace;
      case "workspaceFolderBasename":
        if (!ctx.workspace) throw new UnresolvedVariable(whole, "which has a value only in a workspace; this file is not a workspace's");
        return path.basename(ctx.workspace);
    }
    throw new UnresolvedVariable(whole, "which only the editor can resolve");
  });
}

/** Windsurf: `${env:VAR}` and `${file:/path}` in command, args, env, serverUrl, url, headers. */
function windsurf(value: string): string {
  return value.replace(/\$\{([^{}]*)\}/g, (whole, inner: string) => {
    const m = new RegExp(`^env:(${NAME})$`).exec(inner);
    if (m) return `\${${m[1]}}`;
    if (inner.startsWith("file:")) throw new UnresolvedVariable(whole, "which reads a file's contents; the companion does not copy them into its config");
    throw new UnresolvedVariable(whole, "which Windsurf does not define");
  });
}

/** opencode: `{env:VAR}` and `{file:path}` anywhere in the config. */
function opencode(value: string): string {
  return value.replace(/\{(env|file):([^{}]*)\}/g, (whole, kind: string, inner: string) => {
    if (kind === "env" && new RegExp(`^${NAME}$`).test(inner)) return `\${${inner}}`;
    if (kind === "file") throw new UnresolvedVariable(whole, "which reads a file's contents; the companion does not copy them into its config");
    throw new UnresolvedVariable(whole, "which is not a valid variable name");
  });
}

/** Gemini CLI: `$VAR` and `${VAR}` in any string of settings.json. */
function gemini(value: string): string {
  return value.replace(new RegExp(`\\$(?:\\{(${NAME})\\}|(${NAME}))`, "g"), (_whole, braced?: string, bare?: string) => `\${${braced ?? bare}}`);
}

/**
 * Rewrites `value` from `dialect` into the companion's syntax. Claude Code's `${VAR}` and
 * `${VAR:-default}` already are the companion's; Claude Desktop, Zed and Codex expand nothing.
 */
export function translate(value: string, dialect: Dialect, ctx: TranslateContext): string {
  switch (dialect) {
    case "vscode":
      return vscode(value, ctx);
    case "windsurf":
      return windsurf(value);
    case "opencode":
      return opencode(value);
    case "gemini":
      return gemini(value);
    case "claude-code":
    case "literal":
      return value;
  }
}
