// An agent's event stream (the /mcp GET stream, a call answering over SSE) that the agent stops
// reading. The SDK's Node adapter honours the socket's backpressure by waiting on 'drain', while
// the messages pile up in the transport's own stream queue, where nothing bounds them. Here each
// write is taken at once instead, so what waits shows in the response's writableLength, and the
// one rule for peers that do not read (base/write-bound.ts) applies: past the bound, or a full
// socket that does not drain in time, the response is destroyed. The session stays; an agent that
// is still there reconnects with Last-Event-ID.
import type { ServerResponse } from "node:http";
import { WriteBound } from "../base/write-bound";
import { MAX_PEER_QUEUED_BYTES, PEER_DRAIN_DEADLINE_MS } from "../../shared/limits";

export function boundStreamWrites(res: ServerResponse, log: (line: string) => void, maxQueuedBytes = MAX_PEER_QUEUED_BYTES): void {
  const bound = new WriteBound(res, {
    maxQueuedBytes,
    drainDeadlineMs: PEER_DRAIN_DEADLINE_MS,
    onStall: ({ queuedBytes, why }) => {
      log(`gateway: an agent stopped reading its event stream (${Math.round(queuedBytes / 1024)} KiB waiting${why === "deadline" ? ", not draining" : ""}); closed it`);
      res.destroy();
    },
  });
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  res.write = ((...args: unknown[]) => {
    if (!bound.admit()) return false;
    bound.wrote(write(...args));
    return true;
  }) as typeof res.write;
}
