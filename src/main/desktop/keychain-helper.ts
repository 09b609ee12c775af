// The keychain helper in the desktop app: an Electron utility process running keychain-entry.ts
// (out/main/keychain-helper.cjs). The packaged app turns the runAsNode fuse off, so the `node -e`
// helper of browser mode cannot run there; a utility process is Electron's own way to run Node
// code apart from the main process, and its crash is a message, not ours.
import { utilityProcess } from "electron";
import type { KeychainCall, KeychainReply } from "../secrets/keychain-child";
import { exitOnce, type HelperLauncher } from "../secrets/keychain-process";

/** entryPath: the built helper script; it receives the keytar module's path as its argument. */
export function utilityHelperLauncher(entryPath: string): HelperLauncher {
  return (keytarPath) => {
    const child = utilityProcess.fork(entryPath, [keytarPath], { serviceName: "Toolnexus Companion keychain", stdio: "ignore" });
    const { exit, onExit } = exitOnce();
    child.once("exit", (code) => exit(`exited with code ${code}`));
    child.once("error", (type, location) => exit(`crashed (${type} at ${location})`));
    return {
      send: (call: KeychainCall) => child.postMessage(call),
      onReply: (handler: (reply: KeychainReply) => void) => void child.on("message", handler),
      onExit,
      // The entry exits when told to go; a utility process has no stdin to close.
      release: () => child.postMessage({ id: -1, op: "exit", args: [] }),
      kill: () => void child.kill(),
      // Electron's main process stays up for the tray anyway; nothing to hold.
      hold: () => {},
    };
  };
}
