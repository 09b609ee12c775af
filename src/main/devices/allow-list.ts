// What a paired device may do: see and answer the questions and approvals, check a form's values,
// get a URL question's link (it opens it itself, in its own browser), and read History. Every
// other channel of the contract answers "forbidden" on the device listener: no settings, no
// servers, no rules, no secrets, no token. The list is closed: a channel added to the contract
// later is forbidden here until it is named below.
import { INVOKE_CHANNELS, type HandlerMap, type InvokeMap } from "../../shared/contract";
import type { PendingEntry } from "../../shared/types";
import { HandlerError } from "../rpc/envelope";
import { isPlainObject } from "../../shared/unknown-value";

export const DEVICE_CHANNELS = ["inbox:list", "inbox:answer", "forms:check", "url:open", "history:list", "history:settings"] as const;

type Handlers = HandlerMap<InvokeMap>;

export interface DeviceCaller {
  /** Runs the answer of question `id` as this device's (History records its name). */
  answering<T>(id: string, run: () => Promise<T>): Promise<T>;
}

function forbidden(): never {
  throw new HandlerError("forbidden", "A paired device cannot do this; use the companion on the computer.");
}

/** The url of pending authorization question `id`, from the list as the device sees it. */
async function urlOf(all: Handlers, arg: unknown): Promise<{ opened: false; url: string }> {
  const id = isPlainObject(arg) && typeof arg.id === "string" ? arg.id : undefined;
  if (!id) throw new HandlerError("invalid-argument", 'url:open: "id" must be a string.');
  const entry = (await all["inbox:list"](undefined)).find((e: PendingEntry) => e.request.id === id);
  const url = entry?.request.kind === "authorization" ? entry.request.url : undefined;
  if (typeof url !== "string" || !/^https?:\/\//i.test(url)) throw new HandlerError("not-a-url-question", `Question "${id}" does not ask to open a URL.`);
  return { opened: false, url };
}

/** The handler map a device's socket is served: the allowed channels, every other one refused. */
export function deviceHandlers(all: Handlers, caller: DeviceCaller): Handlers {
  const out = {} as Record<string, (arg: unknown) => Promise<unknown>>;
  for (const channel of INVOKE_CHANNELS) out[channel] = async () => forbidden();
  out["inbox:list"] = all["inbox:list"];
  out["forms:check"] = all["forms:check"];
  out["history:list"] = all["history:list"];
  out["inbox:answer"] = (arg) => {
    const id = isPlainObject(arg) && typeof arg.id === "string" ? arg.id : "";
    return caller.answering(id, () => all["inbox:answer"](arg));
  };
  out["url:open"] = (arg) => urlOf(all, arg);
  // Reading History's settings (the view asks for them), never changing them.
  out["history:settings"] = async (arg) => {
    if (arg !== undefined && arg !== null && !(isPlainObject(arg) && Object.keys(arg).length === 0)) forbidden();
    return all["history:settings"]({});
  };
  return out as Handlers;
}
