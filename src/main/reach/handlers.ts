// Settings → "When you are away": read the settings (secrets as set or not), save them (checked
// whole before anything is written: the file, then each credential to the keychain), and send a
// test through one channel as saved.
import type { HandlerMap } from "../../shared/contract";
import { CHANNEL_NAMES, type ChannelName, type ReachInvokeMap, type ReachSaveArg, type ReachView } from "../../shared/reach";
import { ArgumentError, HandlerError } from "../rpc/envelope";
import { defineHandlers } from "../rpc/handlers";
import { noArg, objectArg } from "../rpc/validate";
import { isPlainObject, errorMessage } from "../../shared/unknown-value";
import { CHANNEL_LABELS, sendThrough } from "./channels";
import { CHANNEL_SECRETS } from "./secret-names";
import { checkSettings, SettingsProblem, writeReachFile, type ReachSettings } from "./settings-file";
import { urlProblem } from "./outbound";
import type { Reach } from "./reach";
import type { Notice } from "./types";

export type ReachHandlers = HandlerMap<ReachInvokeMap>;

const MAX_SECRET_CHARS = 4096;

/** Where each channel's credential sits in the save argument. */
const SECRET_FIELDS: Record<ChannelName, string> = { ntfy: "token", slack: "url", discord: "url", matrix: "token", email: "password" };

async function view(reach: Reach): Promise<ReachView> {
  const s = reach.settings();
  const names = new Set(await reach.secrets.list().catch(() => [] as string[]));
  const set = (c: ChannelName) => names.has(CHANNEL_SECRETS[c]);
  const devices = reach.targets.list();
  const base = reach.linkBase();
  return {
    detail: s.detail,
    escalation: { ...s.escalation },
    ...(s.quietHours ? { quietHours: { ...s.quietHours } } : {}),
    holdAtDesk: s.holdAtDesk,
    ntfy: { ...s.ntfy, tokenSet: set("ntfy") },
    slack: { ...s.slack, urlSet: set("slack") },
    discord: { ...s.discord, urlSet: set("discord") },
    matrix: { ...s.matrix, tokenSet: set("matrix") },
    email: { ...s.email, passwordSet: set("email") },
    devices: { paired: devices.length, push: devices.filter((d) => d.subscription).length },
    secretsKept: reach.secrets.available ? "keychain" : "session",
    ...(base ? { linkBase: base } : {}),
    ...(reach.problem ? { problem: reach.problem } : {}),
    ...(!reach.path ? { problem: "These settings last this session only (no settings file)." } : {}),
  };
}

/** Each credential change the argument asks for: a value to set, null to clear; checked first. */
function secretChanges(input: Record<string, unknown>): Map<ChannelName, string | null> {
  const changes = new Map<ChannelName, string | null>();
  for (const channel of CHANNEL_NAMES) {
    const section = input[channel];
    if (!isPlainObject(section)) continue;
    const value = section[SECRET_FIELDS[channel]];
    if (value === undefined || value === "") continue;
    if (value !== null && (typeof value !== "string" || value.length > MAX_SECRET_CHARS)) throw new ArgumentError(`${CHANNEL_LABELS[channel]}: the ${SECRET_FIELDS[channel]} must be text of at most ${MAX_SECRET_CHARS} characters.`);
    // A token or URL goes into a header or a request line: one word, no control character.
    if (typeof value === "string" && channel !== "email" && /[\s\p{Cc}]/u.test(value.trim())) {
      throw new HandlerError("invalid-settings", `${CHANNEL_LABELS[channel]}: the ${SECRET_FIELDS[channel]} cannot contain spaces or control characters.`, [`${channel}.${SECRET_FIELDS[channel]}`]);
    }
    if (typeof value === "string" && (channel === "slack" || channel === "discord")) {
      const problem = urlProblem(value.trim(), `The ${CHANNEL_LABELS[channel]} webhook URL`);
      if (problem) throw new HandlerError("invalid-settings", problem, [`${channel}.url`]);
    }
    changes.set(channel, typeof value === "string" ? value.trim() : null);
  }
  return changes;
}

function requireCredentials(settings: ReachSettings, changes: Map<ChannelName, string | null>, names: Set<string>): void {
  for (const channel of ["slack", "discord", "matrix"] as const) {
    if (!settings[channel].enabled) continue;
    const change = changes.get(channel);
    const present = change === undefined ? names.has(CHANNEL_SECRETS[channel]) : change !== null;
    if (!present) throw new HandlerError("invalid-settings", channel === "matrix" ? "Matrix needs an access token." : `${CHANNEL_LABELS[channel]} needs its webhook URL.`, [`${channel}.${SECRET_FIELDS[channel]}`]);
  }
}

const TEST_NOTICE = (base: string | undefined): Notice => ({
  id: "test",
  title: "Toolnexus Companion",
  body: "This is a test from Settings: questions that wait for you will arrive here.",
  ...(base ? { url: `${base.replace(/\/+$/, "")}/` } : {}),
  approval: false,
});

export function createReachHandlers(reach: Reach): ReachHandlers {
  return defineHandlers<ReachInvokeMap>({
    "reach:get": async (arg) => {
      noArg("reach:get", arg);
      return view(reach);
    },

    "reach:save": async (arg) => {
      const input = objectArg("reach:save", arg) as Partial<Record<keyof ReachSaveArg, unknown>>;
      let settings: ReachSettings;
      try {
        settings = checkSettings(input);
      } catch (error) {
        if (error instanceof SettingsProblem) throw new HandlerError("invalid-settings", error.message, [error.path]);
        throw error;
      }
      const changes = secretChanges(input);
      requireCredentials(settings, changes, new Set(await reach.secrets.list()));
      if (changes.size && !reach.secrets.available) reach.log("reach: no keychain: the channels' credentials last this session only");
      if (reach.path) writeReachFile(reach.path, settings);
      for (const [channel, value] of changes) {
        if (value === null) await reach.secrets.delete(CHANNEL_SECRETS[channel]);
        else await reach.secrets.set(CHANNEL_SECRETS[channel], value);
      }
      reach.setSettings(settings);
      return view(reach);
    },

    "reach:test": async (arg) => {
      const input = objectArg("reach:test", arg);
      const channel = input.channel;
      if (!CHANNEL_NAMES.includes(channel as ChannelName)) throw new ArgumentError(`reach:test needs "channel", one of ${CHANNEL_NAMES.join(", ")}.`);
      const name = channel as ChannelName;
      try {
        await sendThrough(name, { settings: () => reach.settings(), secrets: reach.secrets }, TEST_NOTICE(reach.linkBase()));
        return { ok: true, message: `${CHANNEL_LABELS[name]}: the test was sent.` };
      } catch (error) {
        const message = `${CHANNEL_LABELS[name]}: the test was not sent: ${reach.scrub(errorMessage(error))}`;
        reach.log(`reach: ${message}`);
        return { ok: false, message };
      }
    },
  });
}
