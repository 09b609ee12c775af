// Composes reach/ (questions that find the person) into the core: the Inbox, the keychain, the
// egress's scrub for everything it sends, and what the device listener and the desktop provide
// once they exist (paired devices, the listener's address, the desktop's idle time). Until the
// device listener is on there are no devices and no links; channels still work.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Inbox } from "../inbox";
import type { SecretStore } from "../secrets";
import { createReach, type Reach } from "../reach/reach";
import { createReachHandlers, type ReachHandlers } from "../reach/handlers";
import type { Clock, PushSubscription, PushTargets } from "../reach/types";
import { ACTION_PATH } from "../reach/signed-actions";
import { sendText } from "../http/replies";
import type { Egress } from "./egress";

/** What the apps (electron.ts, serve.ts) and tests hand the core for reach. */
export interface ReachCoreOptions {
  /** reach.json (defaultReachPath() in the apps); without it the settings last this session. */
  path?: string;
  /** The paired devices (devices/), adapted. */
  targets?: PushTargets;
  /** The device listener's base URL while it is on. */
  linkBase?: () => string | undefined;
  /** Seconds since the desktop was last used (desktop/, Electron's powerMonitor). */
  idleSeconds?: () => number | undefined;
  clock?: Clock;
  minuteOfDay?: (ms: number) => number;
}

const NO_DEVICES: PushTargets = { list: () => [] };

export function openReach(options: ReachCoreOptions | undefined, parts: { inbox: Inbox; secrets: SecretStore; egress: Egress; log: (line: string) => void }): { reach: Reach; handlers: ReachHandlers } {
  const reach = createReach({
    inbox: parts.inbox,
    secrets: parts.secrets,
    scrub: parts.egress.away,
    targets: options?.targets ?? NO_DEVICES,
    linkBase: options?.linkBase ?? (() => undefined),
    log: parts.log,
    ...(options?.path ? { path: options.path } : {}),
    ...(options?.idleSeconds ? { idleSeconds: options.idleSeconds } : {}),
    ...(options?.clock ? { clock: options.clock } : {}),
    ...(options?.minuteOfDay ? { minuteOfDay: options.minuteOfDay } : {}),
  });
  return { reach, handlers: createReachHandlers(reach) };
}

/**
 * What reach reads of the paired devices: the shape of devices/devices.ts's DeviceRegistry
 * (written out here, so this file needs nothing of that folder to compile; a registry is one).
 */
export interface PairedDevicesPort {
  list(): { id: string; name: string; push?: PushSubscription }[];
  setPushSubscription(id: string, subscription: undefined): boolean;
  baseUrl(): string | undefined;
}

/** The paired devices as reach's push targets, and the device listener's address for its links. */
export function devicesForReach(devices: PairedDevicesPort): Required<Pick<ReachCoreOptions, "targets" | "linkBase">> {
  return {
    targets: {
      list: () => devices.list().map((d) => ({ id: d.id, name: d.name, ...(d.push ? { subscription: { endpoint: d.push.endpoint, keys: d.push.keys } } : {}) })),
      forget: (id) => void devices.setPushSubscription(id, undefined),
    },
    linkBase: () => devices.baseUrl(),
  };
}

/** ntfy's Allow/Deny route as a public route of the device listener (DeviceRegistry.addPublicRoute). */
export function reachPublicRoute(reach: Pick<Reach, "actionRoute">): { prefix: string; handle(req: IncomingMessage, res: ServerResponse): void } {
  return {
    prefix: ACTION_PATH.replace(/\/$/, ""),
    handle: (req, res) => {
      if (!reach.actionRoute(req, res)) sendText(res, 404, "Not found.");
    },
  };
}
