// The channels as the services receive them: ntfy, Slack, Discord and Matrix at local HTTP
// endpoints checked field by field against each service's documented payload, email at a local
// SMTP server (smtp-server); ntfy's Allow answering the approval once through the route the device
// listener mounts, its replay refused. No message carries a form's values or a known secret.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Inbox } from "../../src/main/inbox";
import { createReach, type Reach } from "../../src/main/reach/reach";
import { createReachHandlers, type ReachHandlers } from "../../src/main/reach/handlers";
import { ACTION_PATH } from "../../src/main/reach/signed-actions";
import { DEFAULT_SETTINGS, type ReachSettings } from "../../src/main/reach/settings-file";
import { createMemoryStore, registeringStore, SecretScrubber } from "../../src/main/secrets";
import { createEgress } from "../../src/main/app/egress";
import type { ReachSaveArg } from "../../src/shared/reach";
import { FakeClock } from "../helpers/fake-clock";
import { until } from "../helpers/poll";

interface Hit {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: string;
}

const SECRET = "ghp_formvalue_never_sent_0123456789";
const NTFY_TOKEN = "tk_ntfy_access_token_abcdef123456";
const MATRIX_TOKEN = "syt_matrix_access_token_abcdef123456";
const SMTP_PASSWORD = "smtp-password-never-logged-42";

const hits: Hit[] = [];
const mails: { from: string; to: string[]; raw: string }[] = [];
let services: Server;
let listener: Server;
let smtp: SMTPServer;
let servicesUrl: string;
let listenerUrl: string;
let smtpPort: number;
let route: Reach["actionRoute"] | undefined;

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

beforeAll(async () => {
  services = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      hits.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(200, { "content-type": "application/json" }).end('{"event_id":"$1"}');
    });
  });
  servicesUrl = await listen(services);
  // The device listener's part this test plays: the route reach hands it, nothing else.
  listener = createServer((req, res) => {
    if (!route?.(req, res)) res.writeHead(404).end();
  });
  listenerUrl = await listen(listener);
  smtp = new SMTPServer({
    disabledCommands: ["STARTTLS"],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "me@example.org" && auth.password === SMTP_PASSWORD) callback(null, { user: "me" });
      else callback(new Error("Invalid username or password"));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        mails.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString("utf8") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()));
  smtpPort = (smtp.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => services.close(() => resolve()));
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const saveArg = (over: Partial<ReachSaveArg> = {}): ReachSaveArg => ({
  detail: "full",
  escalation: { devicesAfter: 2, approvalDevicesAfter: 1, channelsAfter: 3 },
  holdAtDesk: true,
  ntfy: { enabled: true, url: `${servicesUrl}/ntfy/away-topic`, token: NTFY_TOKEN },
  slack: { enabled: true, url: `${servicesUrl}/slack/T000/B000/XXXX` },
  discord: { enabled: true, url: `${servicesUrl}/discord/api/webhooks/1/abc` },
  matrix: { enabled: true, homeserver: `${servicesUrl}/matrix`, roomId: "!room:example.org", token: MATRIX_TOKEN },
  email: { enabled: true, host: "127.0.0.1", port: smtpPort, secure: false, user: "me@example.org", from: "companion@example.org", to: "me@example.org", password: SMTP_PASSWORD },
  ...over,
});

async function start(): Promise<{ clock: FakeClock; inbox: Inbox; reach: Reach; handlers: ReachHandlers; log: string[]; scrubber: SecretScrubber }> {
  const clock = new FakeClock();
  const scrubber = new SecretScrubber();
  scrubber.register(SECRET);
  const inbox = new Inbox({ now: clock.now });
  const log: string[] = [];
  const egress = createEgress(scrubber);
  const reach = createReach({
    inbox,
    secrets: registeringStore(createMemoryStore("test"), scrubber),
    scrub: egress.away,
    targets: { list: () => [] },
    linkBase: () => listenerUrl,
    clock,
    log: egress.log((l) => log.push(l)),
  });
  route = reach.actionRoute;
  const handlers = createReachHandlers(reach);
  await handlers["reach:save"](saveArg());
  return { clock, inbox, reach, handlers, log, scrubber };
}

const hit = (prefix: string) => hits.find((h) => h.path.startsWith(prefix));

/** Quoted-printable, as nodemailer may write a text body (soft breaks, =XX bytes). */
function unQuote(raw: string): string {
  return raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

describe("channels", () => {
  it("tell every service about an approval waiting a minute, each in its documented shape, and the ntfy Allow answers it once", async () => {
    hits.length = 0;
    mails.length = 0;
    const { clock, inbox, reach, log } = await start();
    const answer = inbox.waitFor({ id: "hook-9", kind: "approval", prompt: `Allow claude-code to run: deploy --token ${SECRET}?`, data: { agent: "claude-code", tool: "Bash", summary: "deploy", input: { command: `deploy --token ${SECRET}`, note: "form-value-not-sent" } } }, { source: { agent: "claude-code" } });
    clock.advanceMinutes(1);
    await until(() => hits.length >= 4 && mails.length >= 1, 10_000, () => `the channels (got ${hits.map((h) => h.path).join(", ")}, ${mails.length} mail; log ${log.join(" | ")})`);
    const link = `${listenerUrl}/#/q/hook-9`;
    const body = "Allow claude-code to run: deploy --token [redacted]?";

    const ntfy = hit("/ntfy/away-topic")!;
    expect(ntfy.method).toBe("POST");
    expect(ntfy.headers.title).toBe("claude-code asks for approval");
    expect(ntfy.headers.priority).toBe("5");
    expect(ntfy.headers.tags).toBe("lock");
    expect(ntfy.headers.click).toBe(link);
    expect(ntfy.headers.authorization).toBe(`Bearer ${NTFY_TOKEN}`);
    expect(ntfy.body).toBe(body);
    const actions = String(ntfy.headers.actions).split("; ");
    expect(actions).toHaveLength(3);
    const [allow, deny, view] = actions.map((a) => a.split(", "));
    expect(allow.slice(0, 2)).toEqual(["http", "Allow"]);
    expect(allow.slice(3)).toEqual(["method=POST", "clear=true"]);
    expect(deny.slice(0, 2)).toEqual(["http", "Deny"]);
    expect(view).toEqual(["view", "Open", link]);
    expect(allow[2].startsWith(`${listenerUrl}${ACTION_PATH}`)).toBe(true);

    const slack = JSON.parse(hit("/slack/")!.body) as { text: string; blocks: { type: string; text?: { type: string; text: string }; elements?: { type: string; url: string }[] }[] };
    expect(slack.text).toBe(`claude-code asks for approval: ${body} <${link}|Open the question>`);
    expect(slack.blocks[0]).toEqual({ type: "section", text: { type: "mrkdwn", text: `*claude-code asks for approval*\n${body}` } });
    expect(slack.blocks[1].type).toBe("actions");
    expect(slack.blocks[1].elements![0]).toMatchObject({ type: "button", url: link });

    const discord = JSON.parse(hit("/discord/")!.body) as { content: string; embeds: { title: string; description: string; url: string }[]; allowed_mentions: unknown };
    expect(discord.content).toBe("claude\\-code asks for approval");
    expect(discord.embeds[0]).toEqual({ title: "claude-code asks for approval", description: "Allow claude\\-code to run: deploy \\-\\-token \\[redacted\\]?", url: link });
    expect(discord.allowed_mentions).toEqual({ parse: [] });

    const matrix = hit("/matrix/")!;
    expect(matrix.method).toBe("PUT");
    expect(matrix.path).toMatch(/^\/matrix\/_matrix\/client\/v3\/rooms\/!room%3Aexample\.org\/send\/m\.room\.message\/[0-9a-f-]{36}$/);
    expect(matrix.headers.authorization).toBe(`Bearer ${MATRIX_TOKEN}`);
    expect(JSON.parse(matrix.body)).toEqual({ msgtype: "m.text", body: `claude-code asks for approval\n${body}\n${link}`, format: "org.matrix.custom.html", formatted_body: `<strong>claude-code asks for approval</strong><br>${body}<br><a href="${link}">Open the question</a>` });

    const [mail] = mails;
    expect(mail.from).toBe("companion@example.org");
    expect(mail.to).toEqual(["me@example.org"]);
    const text = unQuote(mail.raw);
    expect(text).toMatch(/^Subject: claude-code asks for approval\r?$/m);
    expect(text).toMatch(/^From: companion@example\.org\r?$/m);
    expect(text).toMatch(/^To: me@example\.org\r?$/m);
    expect(text).toContain(body);
    expect(text).toContain(`Open it: ${link}`);

    // Nothing carried a form value or a secret, nor did the log.
    // (The ntfy and Matrix credentials travel only in their own Authorization header, checked above.)
    const headers = hits.map(({ headers: { authorization: _, ...rest } }) => rest);
    const everything = JSON.stringify(headers) + JSON.stringify(hits.map((h) => [h.path, h.body])) + mail.raw + log.join("\n");
    for (const never of [SECRET, "form-value-not-sent", SMTP_PASSWORD, NTFY_TOKEN, MATRIX_TOKEN]) expect(everything).not.toContain(never);
    expect(mail.raw).not.toContain(ACTION_PATH);

    // The person taps Allow in ntfy: the approval is answered, once.
    const tapped = await fetch(allow[2], { method: "POST" });
    expect(tapped.status).toBe(200);
    expect(await tapped.text()).toBe("Allowed.");
    expect(await answer).toEqual({ id: "hook-9", ok: true });
    const replay = await fetch(allow[2], { method: "POST" });
    expect(replay.status).toBe(410);
    expect(await replay.text()).toBe("This link was already used.");
    // The other button is now refused too: the question is no longer waiting.
    const late = await fetch(deny[2], { method: "POST" });
    expect(late.status).toBe(410);
    expect((await fetch(allow[2])).status).toBe(405);
    expect((await fetch(`${listenerUrl}${ACTION_PATH}forged.token`, { method: "POST" })).status).toBe(403);
    // Only the egress's scrub saw the secret: the log names the answer without it.
    expect(log.some((l) => l.includes('answered Allow from an ntfy action'))).toBe(true);
    reach.close();
  });

  it("sends Deny as a decline, offers no actions for a form question, and none at all before a minute for approvals", async () => {
    hits.length = 0;
    mails.length = 0;
    const { clock, inbox, reach } = await start();
    const form = inbox.waitFor({ id: "q-form", kind: "input", prompt: "Which branch?", data: { schema: { type: "object", properties: { branch: { type: "string", default: SECRET } } } } }, { source: { server: "github" } });
    const approval = inbox.waitFor({ id: "hook-10", kind: "approval", prompt: "Allow codex to edit README.md?" }, { source: { agent: "codex" } });
    clock.advanceMinutes(0.9);
    expect(hits).toHaveLength(0);
    clock.advanceMinutes(0.1);
    const ntfyApproval = await until(() => hits.find((h) => h.path.startsWith("/ntfy") && h.headers.title === "codex asks for approval"), 5000, "ntfy for the approval");
    const deny = String(ntfyApproval.headers.actions).split("; ")[1].split(", ")[2];
    const tapped = await fetch(deny, { method: "POST" });
    expect(await tapped.text()).toBe("Denied.");
    expect(await approval).toEqual({ id: "hook-10", ok: false, reason: "declined" });
    clock.advanceMinutes(1);
    const ntfyForm = await until(() => hits.find((h) => h.path.startsWith("/ntfy") && h.headers.title === "github asks"), 5000, "ntfy for the form");
    expect(ntfyForm.headers.actions).toBe(`view, Open, ${listenerUrl}/#/q/q-form`);
    expect(ntfyForm.headers.priority).toBe("4");
    // Every channel told of both (so nothing arrives late in the next test), and none carried the form's default.
    await until(() => hits.length >= 8 && mails.length >= 2, 10_000, "both questions on every channel");
    expect(JSON.stringify(hits) + JSON.stringify(mails)).not.toContain(SECRET);
    inbox.answer("q-form", { ok: false, reason: "declined" });
    await form;
    reach.close();
  });

  it("sends a test through each channel from Settings, and says what went wrong without the credential", async () => {
    hits.length = 0;
    mails.length = 0;
    const { handlers, reach } = await start();
    for (const channel of ["ntfy", "slack", "discord", "matrix", "email"] as const) {
      expect(await handlers["reach:test"]({ channel }), channel).toEqual({ ok: true, message: `${channel === "ntfy" ? "ntfy" : channel[0].toUpperCase() + channel.slice(1)}: the test was sent.` });
    }
    expect(hits).toHaveLength(4);
    expect(hits.every((h) => h.body.includes("This is a test from Settings"))).toBe(true);
    expect(mails).toHaveLength(1);
    // A wrong password: the mail server refuses, and the message does not repeat the password.
    await handlers["reach:save"]({ ...saveArg(), email: { ...saveArg().email, password: "wrong-password-123456" } });
    const refused = await handlers["reach:test"]({ channel: "email" });
    expect(refused.ok).toBe(false);
    expect(refused.message).toMatch(/^Email: the test was not sent: /);
    expect(refused.message).not.toContain("wrong-password-123456");
    reach.close();
  });

  it("refuses settings that cannot work, field by field, and keeps credentials out of the view", async () => {
    const { handlers, reach } = await start();
    const view = await handlers["reach:get"](undefined);
    expect(view).toMatchObject({ ntfy: { enabled: true, tokenSet: true }, slack: { enabled: true, urlSet: true }, matrix: { tokenSet: true }, email: { passwordSet: true } });
    expect(JSON.stringify(view)).not.toMatch(new RegExp(`${NTFY_TOKEN}|${MATRIX_TOKEN}|${SMTP_PASSWORD}|/slack/`));
    await expect(handlers["reach:save"]({ ...saveArg(), ntfy: { enabled: true, url: "http://ntfy.example.org/topic" } })).rejects.toThrow("must start with https://");
    await expect(handlers["reach:save"]({ ...saveArg(), ntfy: { enabled: true, url: "https://ntfy.sh/" } })).rejects.toThrow("needs a topic");
    await expect(handlers["reach:save"]({ ...saveArg(), slack: { enabled: true, url: null } })).rejects.toThrow("Slack needs its webhook URL.");
    await expect(handlers["reach:save"]({ ...saveArg(), email: { ...saveArg().email, to: "not an address" } })).rejects.toThrow("To is one address");
    await expect(handlers["reach:save"]({ ...saveArg(), escalation: { devicesAfter: -1, approvalDevicesAfter: 1, channelsAfter: 3 } })).rejects.toThrow("Devices after");
    // Nothing refused was kept.
    expect((await handlers["reach:get"](undefined)).ntfy.url).toBe(`${servicesUrl}/ntfy/away-topic`);
    const off: ReachSettings = { ...DEFAULT_SETTINGS };
    await handlers["reach:save"]({ ...saveArg(), slack: { enabled: false, url: null } });
    expect((await handlers["reach:get"](undefined)).slack).toEqual({ ...off.slack, urlSet: false });
    reach.close();
  });

  it("passes on nothing for a question withdrawn, answered by a rule, or answered by the asking agent itself", async () => {
    hits.length = 0;
    mails.length = 0;
    const { clock, inbox, reach, handlers } = await start();
    await handlers["reach:save"]({ ...saveArg(), slack: { enabled: false }, discord: { enabled: false }, matrix: { ...saveArg().matrix, enabled: false }, email: { ...saveArg().email, enabled: false } });
    const gone = new AbortController();
    const withdrawn = inbox.waitFor({ id: "q-gone", kind: "input", prompt: "Gone soon" }, { source: { server: "s" }, signal: gone.signal });
    clock.advanceMinutes(1);
    gone.abort();
    await withdrawn;
    const clear = inbox.setAutoAnswer((e) => (e.request.id === "q-ruled" ? { ok: true, ruleId: "r1" } : undefined));
    await inbox.waitFor({ id: "q-ruled", kind: "confirm", prompt: "Ruled" }, { source: { agent: "a" } });
    clear();
    const self = inbox.waitFor({ id: "q-self", kind: "confirm", prompt: "Self" }, { source: { agent: "a" }, answeredBy: { agent: "a", answer: new Promise(() => {}) } });
    void inbox.waitFor({ id: "q-told", kind: "confirm", prompt: "Told" }, { source: { agent: "a" } });
    clock.advanceMinutes(10);
    const told = await until(() => hits.find((h) => h.body === "Told"), 5000, "the one question passed on");
    expect(told.path).toBe("/ntfy/away-topic");
    // Anything wrongly passed on was sent before this test message: once it arrives, so has all that.
    expect(await handlers["reach:test"]({ channel: "ntfy" })).toMatchObject({ ok: true });
    await until(() => hits.length >= 2, 5000, "the test message");
    expect(hits.map((h) => h.body)).toEqual(["Told", expect.stringContaining("This is a test")]);
    inbox.close();
    await self;
    reach.close();
  });
});
