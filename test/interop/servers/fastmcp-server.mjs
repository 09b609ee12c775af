// Backend: a fastmcp (punkpeye/fastmcp) server over stdio, with what fastmcp offers a tool: form
// elicitation, sampling, roots, progress, logs, structured output, a resource, a prompt with
// completions.
import { FastMCP } from "fastmcp";
import { z } from "zod";

const server = new FastMCP({ name: "interop-fastmcp", version: "1.0.0", roots: { enabled: true } });

server.addTool({
  name: "add",
  description: "Adds two numbers.",
  parameters: z.object({ a: z.number(), b: z.number() }),
  outputSchema: z.object({ sum: z.number() }),
  annotations: { title: "Add", readOnlyHint: true, openWorldHint: false },
  execute: async ({ a, b }) => ({ content: [{ type: "text", text: String(a + b) }], structuredContent: { sum: a + b } }),
});

server.addTool({
  name: "ask_name",
  description: "Asks the person their name (form elicitation).",
  parameters: z.object({}),
  execute: async (_args, ctx) => {
    const result = await ctx.elicit({
      message: "What is your name?",
      requestedSchema: { type: "object", properties: { name: { type: "string", title: "Name" } }, required: ["name"] },
    });
    return `${result.action}${result.content ? ` ${JSON.stringify(result.content)}` : ""}`;
  },
});

server.addTool({
  name: "work",
  description: "Three steps, each reported as progress and logged.",
  parameters: z.object({}),
  execute: async (_args, ctx) => {
    for (let i = 1; i <= 3; i++) {
      ctx.log.info(`step ${i}`);
      await ctx.reportProgress({ progress: i, total: 3 });
    }
    return "worked";
  },
});

server.addTool({
  name: "sample",
  description: "Asks the client's model.",
  parameters: z.object({ prompt: z.string() }),
  execute: async ({ prompt }, ctx) => {
    const session = server.sessions[0];
    const reply = await session.requestSampling({ messages: [{ role: "user", content: { type: "text", text: prompt } }], maxTokens: 50 });
    return `${reply.model}: ${reply.content.type === "text" ? reply.content.text : reply.content.type}`;
  },
});

server.addTool({
  name: "roots",
  description: "Lists the client's roots.",
  parameters: z.object({}),
  execute: async () => JSON.stringify(server.sessions[0]?.roots ?? []),
});

server.addTool({
  name: "ask_roots",
  description: "Asks the client for its roots now and tells what came back: the list, or the error.",
  parameters: z.object({}),
  execute: async () => {
    try {
      return JSON.stringify(await server.sessions[0].server.listRoots());
    } catch (error) {
      return `error ${error.code ?? ""}: ${error.message}`;
    }
  },
});

server.addResource({ uri: "fastmcp://greeting", name: "Greeting", mimeType: "text/plain", load: async () => ({ text: "hello from fastmcp" }) });

server.addPrompt({
  name: "describe",
  description: "Describes a fruit.",
  arguments: [{ name: "fruit", description: "A fruit", required: true, complete: async (value) => ({ values: ["apple", "apricot", "banana"].filter((f) => f.startsWith(value)) }) }],
  load: async ({ fruit }) => `Describe ${fruit}.`,
});

await server.start({ transportType: "stdio" });
