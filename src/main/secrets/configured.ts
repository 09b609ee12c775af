// What the MCP config itself says is secret: remote servers' header values (literal, or expanded
// from the environment) and stdio servers' env values that are secrets by name or by look.
// `${secret:NAME}` parts are not read here: the keychain is asked at connect time, through the
// registering store, so a value is known before the request that carries it is sent.
import { parseConfig } from "../mcp/config";
import type { SecretScrubber } from "./scrub";

const REFERENCE = /\$\{(secret:)?([A-Za-z_][A-Za-z0-9_.-]*)\}/g;

export function registerConfiguredSecrets(config: unknown, scrubber: SecretScrubber, env: Record<string, string | undefined> = process.env): void {
  let servers;
  try {
    servers = parseConfig(config).servers;
  } catch {
    // An unreadable config starts no server, so it sends no secret.
    return;
  }
  for (const server of servers) {
    if (server.type === "local") {
      for (const [name, value] of Object.entries(server.env)) scrubber.registerEnv(name, value);
      continue;
    }
    scrubber.registerUrlPassword(server.url);
    for (const [name, template] of Object.entries(server.headers)) {
      let complete = true;
      const expanded = template.replace(REFERENCE, (whole, secret: string | undefined, variable: string) => {
        if (secret) {
          complete = false;
          return whole;
        }
        const value = env[variable];
        if (value === undefined) {
          complete = false;
          return whole;
        }
        // A variable spliced into a header is there because it is a credential.
        scrubber.register(value);
        return value;
      });
      if (complete) scrubber.registerHeader(name, expanded);
    }
  }
}
