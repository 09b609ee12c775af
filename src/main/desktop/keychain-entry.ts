// The desktop keychain helper's entry (built to out/main/keychain-helper.cjs and started by
// keychain-helper.ts as an Electron utility process): serveKeychain over process.parentPort.
// argv's last item is the keytar module's path; `exit` from the companion lets the helper go.
import { createRequire } from "node:module";
import { serveKeychain } from "../secrets/keychain-child";

const parentPort = (process as unknown as { parentPort: Electron.ParentPort }).parentPort;
const keytarPath = process.argv[process.argv.length - 1]!;

serveKeychain(() => createRequire(__filename)(keytarPath), {
  onMessage(handler) {
    parentPort.on("message", (event) => {
      if ((event.data as { op?: unknown })?.op === "exit") process.exit(0);
      handler(event.data);
    });
  },
  send: (reply) => parentPort.postMessage(reply),
});
