// The History view's reach into main: the three history channels, as a small client the view
// takes as a prop (component tests pass a fake). Until contract.ts's InvokeMap includes
// HistoryInvokeMap, a transport may lack the channels: the client then answers with a refusal the
// view shows, instead of throwing.
import type { Envelope } from "../../shared/contract";
import type { HistoryInfo, HistoryInvokeMap, HistoryPage, HistoryQuery, HistorySettings } from "../../shared/history";

export interface HistoryClient {
  list(query: HistoryQuery): Promise<Envelope<HistoryPage>>;
  clear(): Promise<Envelope<{ removed: number }>>;
  /** {} reads; a change writes and returns the new settings. */
  settings(change: Partial<HistorySettings>): Promise<Envelope<HistoryInfo>>;
}

type HistoryApi = { [C in keyof HistoryInvokeMap]?: (arg: HistoryInvokeMap[C][0]) => Promise<Envelope<HistoryInvokeMap[C][1]>> };

const notServed: Envelope<never> = {
  ok: false,
  error: { code: "history-unavailable", message: "This companion does not keep history yet." },
};

export function historyClient(api: object): HistoryClient {
  const channels = api as HistoryApi;
  return {
    list: (query) => channels["history:list"]?.(query) ?? Promise.resolve(notServed),
    clear: () => channels["history:clear"]?.(undefined) ?? Promise.resolve(notServed),
    settings: (change) => channels["history:settings"]?.(change) ?? Promise.resolve(notServed),
  };
}
