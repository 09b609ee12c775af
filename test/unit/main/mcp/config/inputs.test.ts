// VS Code `${input:ID}`: found in env, args and headers, asked once as a one-field Inbox form
// (masked for a password), kept in the SecretStore under a stable name, never asked again.
import { describe, expect, it } from "vitest";
import type { ServerConfig } from "../../../../../src/main/mcp/config/config";
import { parseConfig } from "../../../../../src/main/mcp/config/parse";
import { expandHeaders } from "../../../../../src/main/mcp/config/references";
import { inputRequest, inputSecretName, referencedInputs, resolveInputs, substituteInputs, withInputs } from "../../../../../src/main/mcp/config/inputs";
import type { LoadOptions } from "../../../../../src/main/mcp/types";
import { createMemoryStore } from "../../../../../src/main/secrets/memory-store";
import { SECRET_NAME } from "../../../../../src/main/secrets/types";
import { isCredentialProperty } from "../../../../../src/forms/credential";
import type { Answer, Request } from "../../../../../src/shared/types";

function server(entry: Record<string, unknown>, name = "gh"): ServerConfig {
  const { servers, invalid } = parseConfig({ servers: { [name]: entry } }, { env: {} });
  expect(invalid).toEqual([]);
  return servers[0];
}

const LOCAL = {
  command: "node",
  args: ["--token=${input:token}"],
  env: { TOKEN: "${input:token}", REGION: "${input:region}" },
  inputs: [
    { id: "token", description: "GitHub token", password: true },
    { id: "region", description: "Region" },
  ],
};

/** A store and a resolver that answers from a list and records what was asked. */
function harness(answers: ((r: Request) => Partial<Answer>)[]) {
  const store = createMemoryStore("test");
  const asked: Request[] = [];
  const options: LoadOptions = {
    secret: (name) => store.get(name),
    storeSecret: (name, value) => store.set(name, value),
    waitFor: async (request) => {
      asked.push(request);
      const next = answers.shift();
      if (!next) throw new Error(`unexpected question: ${request.prompt}`);
      return { id: request.id, ok: true, ...next(request) };
    },
  };
  return { store, asked, options };
}

describe("inputs: names and forms", () => {
  it("a stable keychain name per server and input, valid for the store, distinct for names that clean alike", () => {
    expect(inputSecretName("gh", "token")).toBe("input.gh.token");
    expect(SECRET_NAME.test(inputSecretName("my server/π", "tok en:1"))).toBe(true);
    expect(inputSecretName("a b", "x")).not.toBe(inputSecretName("a_b", "x"));
    expect(inputSecretName("s".repeat(300), "i".repeat(300)).length).toBeLessThanOrEqual(128);
  });

  it("asks with one field, masked for a password input, saying it is the person's config and goes to the keychain", () => {
    const password = inputRequest("gh", { id: "token", description: "GitHub token", password: true });
    expect(password.kind).toBe("input");
    expect(password.prompt).toBe("VS Code config asks: GitHub token. Stored in your keychain.");
    const schema = password.data!.schema as { properties: Record<string, Record<string, unknown>>; required: string[] };
    expect(Object.keys(schema.properties)).toEqual(["value"]);
    expect(schema.required).toEqual(["value"]);
    expect(schema.properties.value).toMatchObject({ type: "string", format: "password", writeOnly: true });
    expect(isCredentialProperty("value", { ...schema.properties.value, title: "GitHub token" })).toBe(true);
    const plain = inputRequest("gh", { id: "region", description: "Region" }).data!.schema as typeof schema;
    expect(plain.properties.value.format).toBeUndefined();
    expect(isCredentialProperty("value", { ...plain.properties.value, title: "Region" })).toBe(false);
  });

  it("finds the inputs of env and args (local) or headers (remote)", () => {
    expect(referencedInputs(server(LOCAL))).toEqual(["token", "region"]);
    expect(referencedInputs(server({ url: "https://a.example/mcp", headers: { Authorization: "Bearer ${input:key}" } }))).toEqual(["key"]);
  });

  it("puts values in in one pass: an answer holding ${input:…} or ${VAR} is never read again", () => {
    const values = new Map([["a", "${input:b}"], ["b", "B"]]);
    expect(substituteInputs("x=${input:a};y=${input:b};z=${input:c}", values)).toBe("x=${input:b};y=B;z=${input:c}");
    const config = withInputs(server(LOCAL), new Map([["token", "t-1"], ["region", "eu"]]));
    expect(config).toMatchObject({ args: ["--token=t-1"], env: { TOKEN: "t-1", REGION: "eu" } });
  });

  it("expandHeaders puts answered inputs in and names an unanswered one, never its literal", async () => {
    const headers = { Authorization: "Bearer ${input:key}", "X-Env": "${HOME_X}" };
    expect(await expandHeaders(headers, { HOME_X: "${input:key}" }, undefined, new Map([["key", "k-${HOME_X}"]]))).toEqual({
      Authorization: "Bearer k-${HOME_X}",
      "X-Env": "${input:key}",
    });
    await expect(expandHeaders(headers, { HOME_X: "h" })).rejects.toThrow('header "Authorization" needs input key, which has not been answered');
  });
});

describe("inputs: resolving", () => {
  it("asks each missing input once, stores the answers, and a second start asks nothing", async () => {
    const { store, asked, options } = harness([() => ({ data: { value: "tok-123" } }), () => ({ data: { value: "eu-west" } })]);
    const config = server(LOCAL);
    const values = await resolveInputs(config, options);
    expect(Object.fromEntries(values)).toEqual({ token: "tok-123", region: "eu-west" });
    expect(asked.map((r) => r.prompt)).toEqual(["VS Code config asks: GitHub token. Stored in your keychain.", "VS Code config asks: Region. Stored in your keychain."]);
    expect(await store.list()).toEqual(["input.gh.region", "input.gh.token"]);
    expect(await store.get("input.gh.token")).toBe("tok-123");
    // A fresh config object (another start, another process): from the store, no question.
    const again = await resolveInputs(server(LOCAL), options);
    expect(Object.fromEntries(again)).toEqual({ token: "tok-123", region: "eu-west" });
    expect(asked).toHaveLength(2);
  });

  it("a decline fails with the input's id and description; the same config does not ask again, an edited one does", async () => {
    const { asked, options } = harness([() => ({ ok: false, reason: "declined" }), () => ({ data: { value: "t" } }), () => ({ data: { value: "r" } })]);
    const config = server(LOCAL);
    await expect(resolveInputs(config, options)).rejects.toThrow("needs input token: GitHub token (declined; Retry asks again)");
    await expect(resolveInputs(config, options)).rejects.toThrow(/needs input token: GitHub token \(declined; Retry asks again, or set input\.gh\.token in Settings → Secrets/);
    expect(asked).toHaveLength(1);
    await expect(resolveInputs(server(LOCAL), options)).resolves.toBeInstanceOf(Map);
    expect(asked).toHaveLength(3);
  });

  it("a question withdrawn (cancelled) fails now and asks again next start", async () => {
    const { asked, options } = harness([() => ({ ok: false, reason: "cancelled" }), () => ({ data: { value: "t" } }), () => ({ data: { value: "r" } })]);
    const config = server(LOCAL);
    await expect(resolveInputs(config, options)).rejects.toThrow("needs input token: GitHub token (not answered: cancelled)");
    await resolveInputs(config, options);
    expect(asked).toHaveLength(3);
  });

  it("without anyone to ask, the server fails naming the input and where to set it", async () => {
    await expect(resolveInputs(server(LOCAL), {})).rejects.toThrow("needs input token: GitHub token (no one to ask; set input.gh.token in Settings → Secrets)");
  });

  it("a server with no inputs asks nothing and reads nothing", async () => {
    const { asked, options } = harness([]);
    expect((await resolveInputs(server({ command: "node", env: { A: "b" } }), options)).size).toBe(0);
    expect(asked).toHaveLength(0);
  });
});
