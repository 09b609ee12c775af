// How every command of the CLI writes to the person's terminal: what it prints mixes our own
// words with names, prompts, commands and errors that came from outside (other apps' configs,
// servers, history rows), so every line goes through terminalText on its way out and JSON through
// terminalJson. The `connect` shim's MCP traffic and a hook's verdict are for programs, not a
// terminal, and are written by those commands themselves.
import { terminalJson, terminalText } from "../base/terminal-text";

/** One or more lines to stdout; controls and escape sequences never reach the terminal. */
export function out(text = ""): void {
  process.stdout.write(`${terminalText(text, { lines: true })}\n`);
}

/** Text to stdout as it is given (a usage text, a table already ended by its own newline). */
export function outText(text: string): void {
  process.stdout.write(terminalText(text, { lines: true }));
}

/** A value as JSON on stdout, every control character escaped. */
export function outJson(value: unknown, indent?: number): void {
  process.stdout.write(`${terminalJson(value, indent)}\n`);
}

/** One or more lines to stderr, as `out`. */
export function errText(text: string): void {
  process.stderr.write(terminalText(text, { lines: true }));
}

/** The error writer of one command: `toolnexus-companion <command>: <line>` on stderr. */
export function complainer(command?: string): (line: string) => void {
  const prefix = command ? `toolnexus-companion ${command}: ` : "toolnexus-companion: ";
  return (line) => errText(`${prefix}${line}\n`);
}

/** A single-line field of a table or list: line breaks and tabs are spaces. */
export function field(text: string): string {
  return terminalText(text);
}

/** One table cell: a single line, runs of white space as one, at most `width` characters. */
export function cell(text: string, width: number): string {
  const flat = terminalText(text).replace(/\s+/g, " ").trim();
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

/**
 * Output into a pipe that closed (`… | head -2`) ends the command quietly, as for any Unix tool:
 * exit 0, no stack trace. A command that keeps running (the companion itself) keeps running and
 * loses only that output. Any other write error is said in one line.
 */
let pipeGuarded = false;
export function endQuietlyOnClosedPipe(options: { keepRunning?: boolean } = {}): void {
  // Once per process (main() may run more than once in one process: tests).
  if (pipeGuarded) return;
  pipeGuarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED") {
        if (!options.keepRunning) process.exit(0);
        return;
      }
      // stderr may be the stream that failed: the exit code has to say it then.
      if (stream !== process.stderr) process.stderr.write(`toolnexus-companion: cannot write the output: ${error.message}\n`);
      process.exit(1);
    });
  }
}
