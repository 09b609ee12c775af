// What the person set in the Servers view (folds, search) outlives the view's unmount when they
// go to the Inbox to answer a tool's question and come back. One per page (lib/page.svelte.ts), so
// pages (and tests) never share it.

/**
 * Below this many tools in all, every server's tools start unfolded: a short list reads at a glance,
 * while a long one (many servers, thousands of pixels) starts folded to one line per server.
 */
export const UNFOLDED_TOOL_LIMIT = 30;

export interface ToolDraft {
  values: Record<string, unknown>;
  json: string;
  /** Whether the Arguments fold was open. */
  open: boolean;
  /** The input schema the values were typed for. */
  schema: Record<string, unknown>;
}

/** A draft typed for this same schema, or nothing: values for another schema would not fit. */
export function restoredDraft(draft: ToolDraft | undefined, schema: Record<string, unknown>): ToolDraft | undefined {
  if (!draft) return undefined;
  return draft.schema === schema || JSON.stringify(draft.schema) === JSON.stringify(schema) ? draft : undefined;
}

export class ServersViewState {
  query = $state("");
  /** The person's own choice per server; absent means the default. */
  open = $state<Record<string, boolean>>({});
  /**
   * Each server's default fold, decided once, when its tools first arrive: recomputed from the
   * changing total, a second server connecting folded the first one's list under the person.
   * Not reactive: it never changes once set, and it is set while rendering.
   */
  readonly #defaults = new Map<string, boolean>();
  /** Arguments typed into a tool's runner, kept across leaving the view and coming back. */
  readonly drafts = new Map<string, ToolDraft>();

  defaultOpen(server: { name: string; tools: readonly unknown[] }, totalTools: number): boolean {
    const known = this.#defaults.get(server.name);
    if (known !== undefined) return known;
    const open = totalTools <= UNFOLDED_TOOL_LIMIT;
    if (server.tools.length > 0) this.#defaults.set(server.name, open);
    return open;
  }

  /** The person folded or unfolded a server's tools. */
  setOpen(server: string, open: boolean): void {
    this.open[server] = open;
  }
}
