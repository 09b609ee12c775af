// Client residence: the time between an elicitation/create arriving at a client's transport and
// the client's result leaving it. That is exactly the client's own share of an elicitation round
// trip, without the pipe and the server, so it shows in microseconds what a client path adds.
import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";

export class Residence {
  samples: number[] = [];
  private readonly arrived = new Map<unknown, number>();

  /** Call after the client has connected (its onmessage is installed). */
  wrap(transport: Transport): void {
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const m = message as { method?: string; id?: unknown };
      if (m.method === "elicitation/create") this.arrived.set(m.id, performance.now());
      deliver?.(message, extra);
    };
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage, options) => {
      const m = message as { id?: unknown; result?: unknown };
      const started = m.result !== undefined ? this.arrived.get(m.id) : undefined;
      if (started !== undefined) {
        this.samples.push((performance.now() - started) * 1000);
        this.arrived.delete(m.id);
      }
      return send(message, options);
    };
  }

  reset(): void {
    this.samples = [];
  }
}
