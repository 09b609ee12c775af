// Questions that find the person away from the desk: what Settings → "When you are away" shows and
// saves (Web Push to paired devices, ntfy, Slack, Discord, Matrix, email), and when a question is
// passed on (escalation). Plain data; secrets go in, and only whether one is set comes back out.

/** How much a notification says: the asker and the question's start, the asker only, or nothing. */
export type ReachDetail = "full" | "asker" | "none";
export const REACH_DETAILS: readonly ReachDetail[] = ["full", "asker", "none"];

export type ChannelName = "ntfy" | "slack" | "discord" | "matrix" | "email";
export const CHANNEL_NAMES: readonly ChannelName[] = ["ntfy", "slack", "discord", "matrix", "email"];

/** When a question is passed on, in minutes after it arrived unanswered. */
export interface EscalationTimes {
  /** To paired devices (Web Push); with none paired, straight to the channels. */
  devicesAfter: number;
  /** The same for approvals (an agent waits at a permission prompt), usually sooner. */
  approvalDevicesAfter: number;
  /** To the channels, this long after the devices were told. */
  channelsAfter: number;
}

/** Local "HH:MM" to "HH:MM" (may wrap midnight): no channel is used; devices are still told. */
export interface QuietHours {
  start: string;
  end: string;
}

export interface NtfyView {
  enabled: boolean;
  /** The topic's URL, e.g. https://ntfy.sh/my-topic or one on the person's own server. */
  url: string;
  tokenSet: boolean;
}

export interface WebhookView {
  enabled: boolean;
  /** The webhook URL is a credential (anyone with it may post): only whether it is set. */
  urlSet: boolean;
}

export interface MatrixView {
  enabled: boolean;
  homeserver: string;
  roomId: string;
  tokenSet: boolean;
}

export interface EmailView {
  enabled: boolean;
  host: string;
  port: number;
  /** TLS from the start (port 465); otherwise STARTTLS is required except to a loopback host. */
  secure: boolean;
  user: string;
  from: string;
  to: string;
  passwordSet: boolean;
}

export interface ReachView {
  detail: ReachDetail;
  escalation: EscalationTimes;
  quietHours?: QuietHours;
  /** Hold everything back while the desktop was used in the last minute. */
  holdAtDesk: boolean;
  ntfy: NtfyView;
  slack: WebhookView;
  discord: WebhookView;
  matrix: MatrixView;
  email: EmailView;
  /** Paired devices, and how many of them allow notifications. */
  devices: { paired: number; push: number };
  /** Where links in notifications point (the device listener), when it is on. */
  linkBase?: string;
  /** Where the channels' credentials are kept: the keychain, or memory for this session only. */
  secretsKept: "keychain" | "session";
  /** Why the settings could not be kept after a restart (no file, a file that was refused). */
  problem?: string;
}

/**
 * What Settings saves. Secret values are given only to change them: a string sets it, null clears
 * it, absent keeps it. The rest replaces what was there.
 */
export interface ReachSaveArg {
  detail: ReachDetail;
  escalation: EscalationTimes;
  quietHours?: QuietHours | null;
  holdAtDesk: boolean;
  ntfy: { enabled: boolean; url: string; token?: string | null };
  slack: { enabled: boolean; url?: string | null };
  discord: { enabled: boolean; url?: string | null };
  matrix: { enabled: boolean; homeserver: string; roomId: string; token?: string | null };
  email: { enabled: boolean; host: string; port: number; secure: boolean; user: string; from: string; to: string; password?: string | null };
}

/** A test message's outcome, in words. */
export interface ReachTestResult {
  ok: boolean;
  message: string;
}

export interface ReachInvokeMap {
  "reach:get": [void, ReachView];
  /** Refused values come back as an error naming the field; nothing is saved then. */
  "reach:save": [ReachSaveArg, ReachView];
  /** Sends "This is a test" through one channel as saved. */
  "reach:test": [{ channel: ChannelName }, ReachTestResult];
}

export const REACH_INVOKE_CHANNELS = ["reach:get", "reach:save", "reach:test"] as const satisfies readonly (keyof ReachInvokeMap)[];
