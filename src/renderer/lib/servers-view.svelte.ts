// What the person set in the Servers view (folds, search) outlives the view's unmount when they
// go to the Inbox to answer a tool's question and come back. One per store, so pages (and tests)
// never share it.
import type { CompanionStore } from "./state.svelte";

/**
 * Below this many tools in all, every server's tools start unfolded: a short list reads at a glance,
 * while a long one (many servers, thousands of pixels) starts folded to one line per server.
 */
export const UNFOLDED_TOOL_LIMIT = 30;

export class ServersViewState {
  query = $state("");
  /** The person's own choice per server; absent means the default. */
  open = $state<Record<string, boolean>>({});
}

const states = new WeakMap<CompanionStore, ServersViewState>();

export function serversViewState(store: CompanionStore): ServersViewState {
  let state = states.get(store);
  if (!state) states.set(store, (state = new ServersViewState()));
  return state;
}
