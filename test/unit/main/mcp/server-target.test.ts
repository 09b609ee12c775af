// A server card's one line (ServerStatus.target) as main builds it from the config: the command
// and arguments or the URL, with inline tokens masked the way the import list masks them. Values
// the scrubber knows are replaced later, on every server view's way out (core.ts).
import { describe, expect, it } from "vitest";
import { targetOf } from "../../../../src/main/mcp/server-target";
import type { LocalServerConfig, RemoteServerConfig } from "../../../../src/main/mcp/config/config";

const common = { enabled: true, timeout: 1000, callTimeout: 1000, protocol: "legacy" as const };
const local = (command: string, args: string[], cwd?: string): LocalServerConfig => ({ name: "s", type: "local", command, args, env: { API_KEY: "sk-live-aaaaaaaaaaaaaaaa" }, ...(cwd ? { cwd } : {}), ...common });
const remote = (url: string): RemoteServerConfig => ({ name: "r", type: "remote", url, headers: { Authorization: "Bearer x" }, transport: "auto", ...common });

describe("targetOf", () => {
  it("a local server: command, arguments and folder; env never", () => {
    expect(targetOf(local("npx", ["-y", "@scope/server"], "/srv"))).toEqual({ kind: "local", command: "npx", args: ["-y", "@scope/server"], cwd: "/srv" });
    expect(JSON.stringify(targetOf(local("npx", [])))).not.toContain("sk-live");
  });

  it("masks token-looking arguments: a secret flag's value, a known token shape, a Bearer", () => {
    const t = targetOf(local("docker", ["run", "--api-key=abc123", "--token", "plain-value", "ghp_abcdefghijklmnopqrstuvwx", "-e", "GITHUB_TOKEN=abc", "Authorization: Bearer xyz"]));
    expect(t).toEqual({ kind: "local", command: "docker", args: ["run", "--api-key=•••", "--token", "•••", "•••", "-e", "GITHUB_TOKEN=•••", "Authorization: Bearer •••"] });
  });

  it("a remote server: its URL with secret query values and a password masked; headers never", () => {
    expect(targetOf(remote("https://user:pw@mcp.example.com/mcp?token=abc&team=core"))).toEqual({ kind: "remote", url: "https://user:•••@mcp.example.com/mcp?token=•••&team=core" });
    expect(targetOf(remote("https://mcp.example.com/mcp"))).toEqual({ kind: "remote", url: "https://mcp.example.com/mcp" });
  });
});
