// Composes reach/ (questions that find the person) into the core: the Inbox, the keychain, the
// egress's scrub for everything it sends, and what the device listener and the desktop provide
// once they exist (paired devices, the listener's address, the desktop's idle time). Until the
// device listener is on there are no devices and no links; channels still work.
import type { Inbox } from "../inbox";
import type { SecretStore } from "../secrets";
import { createReach, type Reach } from "../reach/reach";
import { createReachHandlers, type ReachHandlers } from "../reach/handlers";
import type { Clock, PushTargets } from "../reach/types";
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
