// What the MCP config itself says is secret: remote servers' header values (literal, or expanded
// from the environment) and stdio servers' env values that are secrets by name or by look.
// `${secret:NAME}` parts are not read here: the keychain is asked at connect time, through the
// registering store, so a value is known before the request that carries it is sent.
import { parseConfig } from "./parse";
import { findReferences } from "./references";
import type { SecretScrubber } from "../../secrets/scrub";

export function registerConfiguredSecrets(config: unknown, scrubber: SecretScrubber, env: Record<string, string | undefined> = process.env): void {
  let servers;
  try {
    // The same reading the source does (env, envFile and url expanded with `env`).
    servers = parseConfig(config, { env }).servers;
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
      // Expanded as connect time will, except secrets: those register when the keychain is read.
      let complete = true;
      let expanded = "";
      let last = 0;
      for (const { ref, start, end } of findReferences(template)) {
        let value: string | undefined;
        if (ref.kind === "env") {
          value = env[ref.name];
          // A variable spliced into a header is there because it is a credential.
          scrubber.register(value);
          value ??= ref.fallback;
        }
        if (value === undefined) complete = false;
        expanded += template.slice(last, start) + (value ?? "");
        last = end;
      }
      if (complete) scrubber.registerHeader(name, expanded + template.slice(last));
    }
  }
}
