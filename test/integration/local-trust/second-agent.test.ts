// Two agents on /v1/requests with the one shared gateway token. The first posts a question; the
// second, even when it sends the first's X-Agent-Name, can neither read it (in the list or by id)
// nor withdraw it: to it the question does not exist (404, like an id never posted). The poster
// holds the capability its POST was answered with, and only that shows and withdraws it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { nextQuestion, rawRequest, startCompanion, type Companion } from "../gateway-harness";

/** Spelled out, not imported: the test must also run (and fail) against code without it. */
const CAPABILITY = "x-request-capability";

let companion: Companion;
let endpoint: string;
let auth: Record<string, string>;

beforeAll(async () => {
  companion = await startCompanion({ everything: false });
  endpoint = `${companion.listener.url}/v1/requests`;
  auth = { host: new URL(companion.listener.url).host, authorization: `Bearer ${companion.token}` };
});
afterAll(async () => {
  await companion?.close();
});

/** The first agent's POST, held open as /v1/requests holds it: the response headers, then the Answer. */
function postAndWait(id: string, agent: string): { headers: Promise<IncomingMessage["headers"]>; answer: Promise<unknown> } {
  const body = JSON.stringify({ id, kind: "input", prompt: `Deploy ${id}?` });
  let onHeaders!: (h: IncomingMessage["headers"]) => void;
  const headers = new Promise<IncomingMessage["headers"]>((r) => (onHeaders = r));
  const answer = new Promise<unknown>((resolve, reject) => {
    const req = httpRequest(endpoint, { method: "POST", headers: { ...auth, "content-type": "application/json", "content-length": String(body.length), "x-agent-name": agent } }, (res) => {
      onHeaders(res.headers);
      let text = "";
      res.on("data", (c: Buffer) => (text += c.toString("utf8")));
      res.on("end", () => resolve(JSON.parse(text)));
    });
    req.on("error", reject);
    req.end(body);
  });
  return { headers, answer };
}

const ids = (list: { body: string }) => (JSON.parse(list.body) as { entries: Array<{ request: { id: string } }> }).entries.map((e) => e.request.id);

describe("a second agent and the first agent's question", () => {
  it("cannot list, read or withdraw it, even under the first agent's X-Agent-Name", async () => {
    const question = nextQuestion(companion, (e) => e.request.id === "first-1");
    const first = postAndWait("first-1", "agent-one");
    await question;
    await first.headers;

    const asFirst = { ...auth, "x-agent-name": "agent-one" };
    const list = await rawRequest(endpoint, { method: "GET", headers: asFirst });
    expect(list.status).toBe(200);
    expect(ids(list)).not.toContain("first-1");
    expect(list.body).not.toContain("Deploy first-1");

    const read = await rawRequest(`${endpoint}/first-1`, { method: "GET", headers: asFirst });
    const never = await rawRequest(`${endpoint}/never-posted`, { method: "GET", headers: asFirst });
    expect(read.status).toBe(404);
    expect(never.status).toBe(404);
    expect(read.body).not.toContain("Deploy first-1");
    // The same answer as for an id nobody posted, so ids cannot be probed.
    expect(read.body.replace("first-1", "ID")).toBe(never.body.replace("never-posted", "ID"));

    const withdraw = await rawRequest(`${endpoint}/first-1`, { method: "DELETE", headers: asFirst });
    expect(withdraw.status).toBe(404);
    const forged = await rawRequest(`${endpoint}/first-1`, { method: "DELETE", headers: { ...asFirst, [CAPABILITY]: "A".repeat(43) } });
    expect(forged.status).toBe(404);
    expect(companion.inbox.get("first-1")).toBeDefined();

    companion.inbox.answer("first-1", { ok: true });
    expect(await first.answer).toEqual({ id: "first-1", ok: true });
  });

  it("the poster sees and withdraws its own question with the capability its POST was given", async () => {
    const question = nextQuestion(companion, (e) => e.request.id === "first-2");
    const first = postAndWait("first-2", "agent-one");
    await question;
    const capability = (await first.headers)[CAPABILITY];
    expect(typeof capability).toBe("string");
    const owner = { ...auth, [CAPABILITY]: capability as string };

    expect(ids(await rawRequest(endpoint, { method: "GET", headers: owner }))).toEqual(["first-2"]);
    const read = await rawRequest(`${endpoint}/first-2`, { method: "GET", headers: owner });
    expect(read.status).toBe(200);
    expect(JSON.parse(read.body)).toMatchObject({ request: { id: "first-2" }, source: { agent: "agent-one" } });

    const withdraw = await rawRequest(`${endpoint}/first-2`, { method: "DELETE", headers: owner });
    expect(withdraw.status).toBe(200);
    expect(await first.answer).toEqual({ id: "first-2", ok: false, reason: "cancelled" });
    expect(companion.inbox.get("first-2")).toBeUndefined();
  });
});
