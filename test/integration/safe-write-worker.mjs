// Starts safe-write-worker.ts in a worker thread with tsx's loader, as bin/toolnexus-companion does.
import { register } from "tsx/esm/api";

register();
await import("./safe-write-worker.ts");
