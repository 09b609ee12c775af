// Settings → "When you are away": the settings as main last sent them, a draft the person edits,
// saving it (secrets go in and never come back: the view says only whether each is set), and a
// test per channel with its outcome.
import type { Envelope } from "../../shared/contract";
import type { ChannelName, ReachSaveArg, ReachTestResult, ReachView } from "../../shared/reach";
import type { Call } from "./api";

/** Each channel's credential as typed: "" keeps what is set, `forget` clears it on save. */
export interface SecretDraft {
  value: string;
  forget: boolean;
}

export type ReachDraft = Omit<ReachSaveArg, "quietHours" | "ntfy" | "slack" | "discord" | "matrix" | "email"> & {
  quiet: boolean;
  quietStart: string;
  quietEnd: string;
  ntfy: { enabled: boolean; url: string };
  slack: { enabled: boolean };
  discord: { enabled: boolean };
  matrix: { enabled: boolean; homeserver: string; roomId: string };
  email: { enabled: boolean; host: string; port: number; secure: boolean; user: string; from: string; to: string };
  secrets: Record<ChannelName, SecretDraft>;
};

const SECRET_KEYS: Record<ChannelName, string> = { ntfy: "token", slack: "url", discord: "url", matrix: "token", email: "password" };

export function draftOf(view: ReachView): ReachDraft {
  const blank = (): SecretDraft => ({ value: "", forget: false });
  return {
    detail: view.detail,
    escalation: { ...view.escalation },
    holdAtDesk: view.holdAtDesk,
    quiet: view.quietHours !== undefined,
    quietStart: view.quietHours?.start ?? "22:00",
    quietEnd: view.quietHours?.end ?? "07:00",
    ntfy: { enabled: view.ntfy.enabled, url: view.ntfy.url },
    slack: { enabled: view.slack.enabled },
    discord: { enabled: view.discord.enabled },
    matrix: { enabled: view.matrix.enabled, homeserver: view.matrix.homeserver, roomId: view.matrix.roomId },
    email: { enabled: view.email.enabled, host: view.email.host, port: view.email.port, secure: view.email.secure, user: view.email.user, from: view.email.from, to: view.email.to },
    secrets: { ntfy: blank(), slack: blank(), discord: blank(), matrix: blank(), email: blank() },
  };
}

export function saveArgOf(draft: ReachDraft): ReachSaveArg {
  const secret = (c: ChannelName) => {
    const s = draft.secrets[c];
    return s.forget ? { [SECRET_KEYS[c]]: null } : s.value ? { [SECRET_KEYS[c]]: s.value } : {};
  };
  return {
    detail: draft.detail,
    escalation: { ...draft.escalation },
    quietHours: draft.quiet ? { start: draft.quietStart, end: draft.quietEnd } : null,
    holdAtDesk: draft.holdAtDesk,
    ntfy: { ...draft.ntfy, ...secret("ntfy") },
    slack: { ...draft.slack, ...secret("slack") },
    discord: { ...draft.discord, ...secret("discord") },
    matrix: { ...draft.matrix, ...secret("matrix") },
    email: { ...draft.email, ...secret("email") },
  } as ReachSaveArg;
}

export class ReachState {
  value = $state.raw<ReachView | null>(null);
  loadError = $state("");

  constructor(private readonly call: Call) {}

  async load(): Promise<Envelope<ReachView>> {
    const result = await this.call("reach:get");
    if (result.ok) this.value = result.value;
    else this.loadError = result.error.message;
    return result;
  }

  async save(draft: ReachDraft): Promise<Envelope<ReachView>> {
    const result = await this.call("reach:save", saveArgOf(draft));
    if (result.ok) this.value = result.value;
    return result;
  }

  test(channel: ChannelName): Promise<Envelope<ReachTestResult>> {
    return this.call("reach:test", { channel });
  }
}
