// Turns the error a native addon throws when it cannot load into one sentence a person can act
// on: which addon, why (the ABI numbers from the error), and the one command that fixes it.
// The desktop app runs better-sqlite3 built for Electron (scripts/electron-natives.mjs) and
// browser mode, the CLI and the tests run node_modules' Node build; a mix-up shows up here.
import { errorMessage } from "../../shared/unknown-value";

/** What NODE_MODULE_VERSION numbers mean, for the message (Node's and Electron's release tables). */
const KNOWN_ABIS: Record<string, string> = {
  "108": "Node 18",
  "115": "Node 20",
  "127": "Node 22",
  "137": "Node 24",
};

function runtimeName(abi: string): string {
  return KNOWN_ABIS[abi] ?? `ABI ${abi}`;
}

/**
 * The sentence for a native addon that did not load, or undefined when `error` is some other
 * failure (a corrupt database, a missing folder) that the caller reports as it always did.
 */
export function explainNativeLoadError(addon: string, error: unknown, fix: string): string | undefined {
  const message = errorMessage(error);
  const abi = /NODE_MODULE_VERSION (\d+)\. This version of Node\.js requires\s+NODE_MODULE_VERSION (\d+)/.exec(message);
  if (abi) {
    const [, built, needed] = abi;
    return `${addon} was built for ${runtimeName(built!)} (NODE_MODULE_VERSION ${built}) but this runtime needs NODE_MODULE_VERSION ${needed}; run \`${fix}\` to build it for this runtime`;
  }
  if (/invalid ELF header|wrong ELF class|not a valid Win32 application|mach-o, but wrong architecture|incompatible architecture/i.test(message)) {
    return `${addon} was built for another platform or architecture; run \`${fix}\` to build it for this machine`;
  }
  if (/Could not locate the bindings file|Cannot find module .*\.node|undefined symbol/i.test(message)) {
    return `${addon}'s native part is missing or incomplete; run \`${fix}\` to build it`;
  }
  return undefined;
}
