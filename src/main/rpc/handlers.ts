// How a feature declares the channels it serves: `defineHandlers<ItsInvokeMap>({ … })`, every
// handler file the same way, so each map is checked against the contract where it is written
// (a missing channel, a result of the wrong shape) and the api layer only merges them.
import type { HandlerMap } from "../../shared/contract";

export function defineHandlers<M extends { [C in keyof M]: [unknown, unknown] }>(handlers: HandlerMap<M>): HandlerMap<M> {
  return handlers;
}
