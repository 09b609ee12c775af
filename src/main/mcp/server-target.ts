// What a server card shows on its one line: the command line of a local server or the URL of a
// remote one. The page never sees a secret: values the scrubber knows become [redacted] on the
// way out (core scrubs every server view); inline tokens the scrubber cannot know (`--api-key=…`,
// `?token=…`, `Bearer …` in an argument) are masked here with the import list's own masking.
import type { ServerTarget } from "../../shared/types";
import { redactArgs, redactUrl } from "../secrets/redact-view";
import type { ServerConfig } from "./config/config";

export function targetOf(config: ServerConfig): ServerTarget {
  if (config.type === "remote") return { kind: "remote", url: redactUrl(config.url) };
  return {
    kind: "local",
    command: redactArgs([config.command])[0],
    args: redactArgs(config.args),
    ...(config.cwd !== undefined ? { cwd: config.cwd } : {}),
  };
}
