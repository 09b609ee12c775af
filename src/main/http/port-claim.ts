// The listener's port, bound before anything else starts. Without it, a taken port was found only
// once every MCP server (npx downloads included) had started, and then the companion stopped them
// all again. The claimed socket is handed to the listener (startListener's `claim`), so no other
// process can take the port in between; a connection that arrives before the hand-over is closed
// at once, as if nothing were listening yet.
import { createServer, type Server } from "node:net";
import { describePortHolder } from "../base/port-holder";
import { asError } from "../../shared/unknown-value";

export interface PortClaim {
  /** The port bound (the one asked for, or the free one picked for 0). */
  readonly port: number;
  /** The bound server, for the listener to take over; once taken, release() does nothing. */
  handOver(): Server;
  /** Gives the port back (start-up failed before the listener took it). */
  release(): Promise<void>;
}

/** A bind that failed because the port is taken: says which process holds it when it can. */
class PortInUseError extends Error {
  readonly code = "EADDRINUSE";
  constructor(readonly port: number) {
    super(`Port ${port} on 127.0.0.1 is in use${describePortHolder(port)}; stop that or pick another port with --port.`);
    this.name = "PortInUseError";
  }
}

/** The error a failed bind of `port` becomes: EADDRINUSE names the holder, others stay as they are. */
export function bindFailure(error: unknown, port: number): Error {
  if ((error as NodeJS.ErrnoException | undefined)?.code === "EADDRINUSE") return new PortInUseError(port);
  return asError(error);
}

export async function claimPort(port: number): Promise<PortClaim> {
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) => reject(bindFailure(error, port)));
    server.listen(port, "127.0.0.1", () => resolve());
  });
  server.removeAllListeners("error");
  server.on("error", () => {});
  const address = server.address();
  let taken = false;
  return {
    port: typeof address === "object" && address ? address.port : port,
    handOver() {
      if (taken) throw new Error("The claimed port was already handed over.");
      taken = true;
      // The listener's server answers from now on; this one must not accept anything more.
      server.removeAllListeners("connection");
      return server;
    },
    release: () =>
      new Promise<void>((resolve) => {
        if (taken) return resolve();
        taken = true;
        server.close(() => resolve());
      }),
  };
}
