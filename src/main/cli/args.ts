// What every command's arguments share, before the command's own parseArgs sees them: whether
// help was asked for, and the options whose value may itself start with a dash.

/**
 * Options whose value is handed on verbatim and so often starts with a dash: `--arg -y` is how
 * `npx -y pkg` is written. parseArgs refuses `--arg -y` as ambiguous; joined into `--arg=-y` it
 * is unambiguous, which is what a person who typed it meant.
 */
const DASH_VALUE_OPTIONS = new Set(["--arg"]);

/** `args` with `--arg VALUE` written `--arg=VALUE`, whatever VALUE starts with (before a `--`). */
export function joinDashValues(args: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") return [...joined, ...args.slice(i)];
    if (DASH_VALUE_OPTIONS.has(arg) && i + 1 < args.length) joined.push(`${arg}=${args[++i]}`);
    else joined.push(arg);
  }
  return joined;
}

/** `--help` or `-h` among the arguments (not after `--`, not the value of `--arg`). */
export function wantsHelp(args: string[]): boolean {
  for (const arg of joinDashValues(args)) {
    if (arg === "--") return false;
    if (arg === "--help" || arg === "-h") return true;
  }
  return false;
}
