// The keychain names reach keeps its own credentials under: the channels' tokens, webhook URLs and
// mail password, and the VAPID key pair. Settings → "When you are away" manages them, so the
// Secrets list (api/settings-state.ts) and `toolnexus-companion secret list` leave them out, as
// they do the gateway token and OAuth tokens.
import type { ChannelName } from "../../shared/reach";

const PREFIX = "reach.";

export const VAPID_SECRET = `${PREFIX}vapid`;

/** Each channel's credential (a webhook's URL is one: it lets anyone post). */
export const CHANNEL_SECRETS = {
  ntfy: `${PREFIX}ntfy.token`,
  slack: `${PREFIX}slack.url`,
  discord: `${PREFIX}discord.url`,
  matrix: `${PREFIX}matrix.token`,
  email: `${PREFIX}email.password`,
} as const satisfies Record<ChannelName, string>;

export function isReachSecret(name: string): boolean {
  return name.startsWith(PREFIX);
}
