// The keychain helper's program: it loads keytar and answers one call at a time. It runs in its
// own process (keychain-process.ts starts it) because keytar's native code can take the whole
// process down or stall it: on Linux, findCredentials on a locked keyring whose unlock prompt
// fails or is cancelled dereferences a null secret (SIGSEGV; node-keytar#477), and concurrent
// libsecret calls from keytar's worker threads can abort in libgcrypt (node-keytar#283). In a
// helper such a crash costs one call, and a stalled call is ended by killing the helper.
//
// Both functions below are sent as source text (Function#toString) to `node -e`, so they must
// stay self-contained: no imports, no outer variables, nothing but their parameters and globals.

/** One call the companion asks for. */
export interface KeychainCall {
  id: number;
  op: "getPassword" | "setPassword" | "deletePassword" | "findCredentials";
  args: string[];
}

/** What the helper answers; `error` is keytar's message, which never holds a secret value. */
export type KeychainReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** How the helper talks to the companion: stdin/stdout lines under node, parentPort in Electron. */
export interface HelperPort {
  onMessage(handler: (message: unknown) => void): void;
  send(reply: KeychainReply): void;
}

/** Answers calls one after the other; a second call never reaches libsecret while one runs. */
export function serveKeychain(load: () => unknown, port: HelperPort): void {
  let keytar: Record<string, (...args: string[]) => Promise<unknown>> | undefined;
  let loadError = "";
  try {
    const mod = load() as { default?: unknown };
    keytar = (mod && typeof mod === "object" && "default" in mod && mod.default ? mod.default : mod) as typeof keytar;
  } catch (error) {
    loadError = `keytar could not be loaded: ${error instanceof Error ? error.message : String(error)}`;
  }
  const ops = ["getPassword", "setPassword", "deletePassword", "findCredentials"];
  let chain: Promise<void> = Promise.resolve();
  port.onMessage((message) => {
    const call = message as { id?: unknown; op?: unknown; args?: unknown };
    const id = typeof call?.id === "number" ? call.id : -1;
    chain = chain.then(async () => {
      try {
        if (!keytar) throw new Error(loadError);
        if (typeof call.op !== "string" || !ops.includes(call.op)) throw new Error(`unknown keychain call ${String(call.op)}`);
        const args = Array.isArray(call.args) ? call.args.map(String) : [];
        const value = await keytar[call.op](...args);
        port.send({ id, ok: true, value: value === undefined ? null : value });
      } catch (error) {
        port.send({ id, ok: false, error: error instanceof Error ? error.message : String(error) });
      }
    });
  });
}

/** The port over stdin and stdout, one JSON value per line; EOF on stdin (the companion exited,
 * or let the helper go) ends the helper at once, even while a call is stuck in native code. */
function stdioPort(): HelperPort {
  return {
    onMessage(handler) {
      let buffered = "";
      process.stdin.setEncoding("utf8");
      process.stdin.on("data", (chunk: string) => {
        buffered += chunk;
        let end = buffered.indexOf("\n");
        while (end >= 0) {
          const line = buffered.slice(0, end);
          buffered = buffered.slice(end + 1);
          end = buffered.indexOf("\n");
          try {
            handler(JSON.parse(line));
          } catch {
            // Not ours to answer: the companion writes only JSON lines.
          }
        }
      });
      process.stdin.on("end", () => process.exit(0));
      process.stdin.on("error", () => process.exit(0));
    },
    send(reply) {
      process.stdout.write(`${JSON.stringify(reply)}\n`);
    },
  };
}

/** The name the helper shows in `ps`, so a person (and the orphan tests) can tell what it is. */
export const KEYCHAIN_HELPER_NAME = "toolnexus-companion-keychain";

/** `node -e` source: argv[1] is the helper's name, argv[2] the path of the keytar module. */
export function nodeHelperSource(): string {
  return `"use strict";\n(${serveKeychain.toString()})(() => require(process.argv[2]), (${stdioPort.toString()})());\n`;
}
