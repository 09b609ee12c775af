// Questions that find the person: the Inbox's events drive the escalation (escalation.ts), which
// tells the paired devices (push.ts) and then the channels (channels.ts). Every text sent is the
// notice (notice.ts), scrubbed by the egress's scrub the composition root passes in; a question
// answered or withdrawn anywhere cancels what was pending and closes its push notifications.
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Inbox } from "../inbox";
import type { PendingEntry } from "../../shared/types";
import type { SecretStore } from "../secrets";
import { Escalation } from "./escalation";
import { createPusher, type Pusher } from "./push";
import { vapidKeys } from "./vapid";
import { noticeFor } from "./notice";
import { CHANNEL_LABELS, enabledChannels, sendThrough } from "./channels";
import { actionRoute, ACTION_PATH, createSignedActions, type ActionClaim, type SignedActions } from "./signed-actions";
import { DEFAULT_SETTINGS, readReachFile, type ReachSettings } from "./settings-file";
import { systemClock, type Clock, type PushTargets } from "./types";
import { CHANNEL_BUDGET, PUSH_BUDGET, SendBudget } from "./send-budget";
import { errorMessage } from "../../shared/unknown-value";

export interface ReachOptions {
  inbox: Inbox;
  secrets: SecretStore;
  /** The egress's scrub (app/egress.ts): every text that leaves passes it. */
  scrub: (text: string) => string;
  /** The paired devices; none until the device listener is on. */
  targets: PushTargets;
  /** The device listener's base URL (https://host:port), while it is on. */
  linkBase: () => string | undefined;
  /** Seconds since the desktop was last used, from desktop/; absent in browser mode. */
  idleSeconds?: () => number | undefined;
  /** reach.json (settings-file.ts); without it the settings last this session. */
  path?: string;
  clock?: Clock;
  minuteOfDay?: (ms: number) => number;
  log: (line: string) => void;
}

export interface Reach {
  settings(): ReachSettings;
  /** Replaces the settings (already checked and written by the handlers). */
  setSettings(settings: ReachSettings): void;
  /** Why the settings file was not used, when it was not. */
  readonly problem?: string;
  readonly path?: string;
  readonly secrets: SecretStore;
  readonly targets: PushTargets;
  readonly pusher: Pusher;
  linkBase(): string | undefined;
  /** The VAPID public key the device page subscribes with (applicationServerKey). */
  vapidPublicKey(): Promise<string>;
  /** The device listener's route for ntfy's Allow/Deny (ACTION_PATH). */
  actionRoute: (req: IncomingMessage, res: ServerResponse) => boolean;
  scrub: (text: string) => string;
  log: (line: string) => void;
  close(): void;
}

export { ACTION_PATH };

/** The HTTPS origin a push service may write to about us; a fixed mailto: otherwise. */
function vapidSubject(base: string | undefined): string {
  if (base?.startsWith("https://") && !/^https:\/\/(localhost|127\.|\[::1\])/.test(base)) return base;
  return "mailto:toolnexus-companion@users.noreply.github.com";
}

export function createReach(options: ReachOptions): Reach {
  const clock = options.clock ?? systemClock;
  const read = options.path ? readReachFile(options.path) : { settings: DEFAULT_SETTINGS };
  if (read.problem) options.log(`reach: ${read.problem}; using the defaults`);
  let settings = read.settings;
  const keys = vapidKeys(options.secrets);
  const pusher = createPusher({ targets: options.targets, keys, subject: () => vapidSubject(options.linkBase()), log: options.log });
  const actions: SignedActions = createSignedActions({ clock });
  /** The devices each question's notification went to, to close it there. */
  const pushed = new Map<string, string[]>();
  const notice = (entry: PendingEntry) => noticeFor(entry, { detail: settings.detail, linkBase: options.linkBase(), scrub: options.scrub });

  const pushBudget = new SendBudget(clock, PUSH_BUDGET.max, PUSH_BUDGET.windowMs);
  const channelBudget = new SendBudget(clock, CHANNEL_BUDGET.max, CHANNEL_BUDGET.windowMs);
  const overBudget = (entry: PendingEntry, where: string, budget: { max: number; windowMs: number }) =>
    options.log(`reach: question ${quoted(entry)} was not passed on to ${where}: more than ${budget.max} in ${budget.windowMs / 60_000} minutes`);

  const toDevices = (entry: PendingEntry) => {
    if (!pushBudget.take()) return overBudget(entry, "paired devices", PUSH_BUDGET);
    const id = entry.request.id;
    void pusher.notify(notice(entry)).then((ids) => {
      if (options.inbox.get(id) === entry) pushed.set(id, ids);
      else void pusher.close(id, ids);
    });
  };
  const toChannels = (entry: PendingEntry) => {
    if (enabledChannels(settings).length === 0) return;
    if (!channelBudget.take()) return overBudget(entry, "the channels", CHANNEL_BUDGET);
    const n = notice(entry);
    const base = options.linkBase();
    const links = n.approval && base ? linksFor(actions, base, entry) : undefined;
    for (const channel of enabledChannels(settings)) {
      sendThrough(channel, { settings: () => settings, secrets: options.secrets }, n, channel === "ntfy" ? links : undefined).catch((error: unknown) =>
        options.log(`reach: ${CHANNEL_LABELS[channel]} was not told about question ${quoted(entry)}: ${options.scrub(errorMessage(error))}`),
      );
    }
  };
  const escalation = new Escalation({
    clock,
    settings: () => settings,
    ...(options.idleSeconds ? { idleSeconds: options.idleSeconds } : {}),
    ...(options.minuteOfDay ? { minuteOfDay: options.minuteOfDay } : {}),
    hasDevices: () => options.targets.list().some((t) => t.subscription),
    toDevices,
    toChannels,
  });
  const settled = (qid: string) => {
    escalation.settle(qid);
    const devices = pushed.get(qid);
    pushed.delete(qid);
    if (devices) void pusher.close(qid, devices);
  };
  const unsubscribe = options.inbox.on((event) => {
    // A question a rule answers at once, or the asking agent answers itself, needs nobody found.
    if (event.type === "added" && !event.byRule && !event.entry.answering) escalation.track(event.entry);
    else if (event.type === "answered" || event.type === "withdrawn") settled(event.id);
  });
  const answer = (claim: ActionClaim) => {
    const entry = options.inbox.get(claim.id);
    if (!entry || entry.receivedAt !== claim.receivedAt || entry.request.kind !== "approval") throw new Error("not waiting");
    options.inbox.answer(claim.id, claim.choice === "allow" ? { ok: true } : { ok: false, reason: "declined" });
  };
  return {
    settings: () => settings,
    setSettings: (next) => void (settings = next),
    ...(read.problem ? { problem: read.problem } : {}),
    ...(options.path ? { path: options.path } : {}),
    secrets: options.secrets,
    targets: options.targets,
    pusher,
    linkBase: options.linkBase,
    vapidPublicKey: async () => (await keys()).publicKey,
    actionRoute: actionRoute(actions, answer, options.log),
    scrub: options.scrub,
    log: options.log,
    close: () => {
      unsubscribe();
      escalation.close();
    },
  };
}

const quoted = (entry: PendingEntry) => JSON.stringify(entry.request.id.slice(0, 80));

function linksFor(actions: SignedActions, base: string, entry: PendingEntry): { allow: string; deny: string } {
  const root = `${base.replace(/\/+$/, "")}${ACTION_PATH}`;
  const claim = { id: entry.request.id, receivedAt: entry.receivedAt };
  return { allow: root + actions.mint({ ...claim, choice: "allow" }), deny: root + actions.mint({ ...claim, choice: "deny" }) };
}
