// The channels for when no paired device answers: each one that is on gets the same notice.
// Their credentials are read from the keychain at send time (and so registered with the scrubber
// by the store: secrets/registering-store.ts); a failure is logged by channel and host, never with
// a URL or a token.
import type { ChannelName } from "../../shared/reach";
import type { SecretStore } from "../secrets";
import type { Notice } from "./types";
import type { ReachSettings } from "./settings-file";
import { sendNtfy, type NtfyActions } from "./ntfy";
import { sendDiscord, sendMatrix, sendSlack } from "./webhooks";
import { sendEmail } from "./email";
import { CHANNEL_SECRETS } from "./secret-names";


export const CHANNEL_LABELS: Record<ChannelName, string> = { ntfy: "ntfy", slack: "Slack", discord: "Discord", matrix: "Matrix", email: "Email" };

export interface ChannelDeps {
  settings: () => ReachSettings;
  secrets: Pick<SecretStore, "get">;
}

/** Sends through one channel as configured; throws with what went wrong. */
export async function sendThrough(channel: ChannelName, deps: ChannelDeps, notice: Notice, actions?: NtfyActions): Promise<void> {
  const s = deps.settings();
  const secret = () => deps.secrets.get(CHANNEL_SECRETS[channel]);
  switch (channel) {
    case "ntfy":
      if (!s.ntfy.url) throw new Error("no topic URL is set");
      return sendNtfy(s.ntfy.url, await secret(), notice, actions);
    case "slack":
    case "discord": {
      const url = await secret();
      if (!url) throw new Error("no webhook URL is set");
      return channel === "slack" ? sendSlack(url, notice) : sendDiscord(url, notice);
    }
    case "matrix": {
      const token = await secret();
      if (!token) throw new Error("no access token is set");
      return sendMatrix(s.matrix.homeserver, s.matrix.roomId, token, notice);
    }
    case "email":
      return sendEmail(s.email, await secret(), notice);
  }
}

export function enabledChannels(settings: ReachSettings): ChannelName[] {
  return (["ntfy", "slack", "discord", "matrix", "email"] as const).filter((c) => settings[c].enabled);
}
