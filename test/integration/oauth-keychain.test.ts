// OAuth credentials in a real keychain (gnome-keyring under dbus-run-session; scripts/test.sh sets
// it up): a sign-in stores them there, a restart with a fresh store reads them back and connects
// without asking, sign-out leaves nothing of the server behind.
import keytar from "keytar";
import { afterAll, describe, expect, it } from "vitest";
import { createKeytarStore } from "../../src/main/secrets";
import { companion, signingPerson, startOAuthServer, statusOf, until } from "./oauth-harness";

const hasBus = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);
if (!hasBus && process.env.TNC_REQUIRE_KEYCHAIN) {
  throw new Error("oauth-keychain.test.ts: no D-Bus session (DBUS_SESSION_BUS_ADDRESS unset) although npm test requires the keychain tests.");
}
if (!hasBus) console.warn("oauth-keychain.test.ts: skipped — no D-Bus session; run it through `npm test` (scripts/test.sh).");

// A service of its own, so a test run never touches the person's companion entries.
const SERVICE = `toolnexus-companion-test-oauth-${process.pid}`;

afterAll(async () => {
  if (!hasBus) return;
  for (const { account } of await keytar.findCredentials(SERVICE)) await keytar.deletePassword(SERVICE, account);
});

describe.skipIf(!hasBus)("OAuth credentials in the keychain", () => {
  it("survive a restart (no second question) and sign-out deletes them all", async () => {
    const server = await startOAuthServer();
    const pages: Array<{ status: number; body: string }> = [];
    const first = await companion(createKeytarStore(keytar, SERVICE), server.url, signingPerson(pages));
    await until(first.source, (s) => s.state === "connected");
    await first.source.close();
    const accounts = (await keytar.findCredentials(SERVICE)).map((c) => c.account);
    expect(accounts).toEqual(expect.arrayContaining([expect.stringMatching(/\.tokens\./), expect.stringMatching(/\.client\./), expect.stringMatching(/\.verifier$/)]));

    const second = await companion(createKeytarStore(keytar, SERVICE), server.url, signingPerson(pages));
    expect(statusOf(second.source)?.state).toBe("connected");
    expect(second.questions).toEqual([]);
    expect((await server.stats()).authorize).toBe(1);

    await second.auth.signOut("secure");
    expect(await keytar.findCredentials(SERVICE)).toEqual([]);
  }, 40_000);
});
