// Backend: an mcp-use (2.x) MCPServer over streamable HTTP. mcp-use 2.x builds a fresh SDK v2
// McpServer per request (the stateless 2026-07-28 model): a 2026-07-28 client gets it, and its
// question comes as an `input_required` result the client answers by retrying the call.
// Usage: node mcp-use-server.mjs <port>; prints `LISTENING <url>` once it accepts connections.
import { MCPServer, acceptedContent, inputRequired, inputResponse } from "mcp-use";
import { z } from "zod";

const port = Number(process.argv[2]);
const server = new MCPServer({ name: "interop-mcp-use", version: "1.0.0" });

server.tool(
  {
    name: "shout",
    title: "Shout",
    description: "Upper-cases a text.",
    inputSchema: z.object({ text: z.string().describe("What to shout") }),
    outputSchema: z.object({ shouted: z.string() }),
    annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    _meta: { "com.example/owner": "interop" },
  },
  async ({ text }) => ({ content: [{ type: "text", text: text.toUpperCase() }], structuredContent: { shouted: text.toUpperCase() } }),
);

const colour = { type: "object", properties: { colour: { type: "string", enum: ["red", "green", "blue"], title: "Colour" } }, required: ["colour"] };

server.tool(
  { name: "pick_colour", description: "Asks which colour, through input_required.", inputSchema: z.object({}) },
  async (_input, ctx) => {
    const view = inputResponse(ctx.inputResponses, "colour");
    if (view.kind === "elicit" && view.action !== "accept") return { content: [{ type: "text", text: view.action }] };
    const answer = acceptedContent(ctx.inputResponses, "colour");
    if (answer && typeof answer.colour === "string") return { content: [{ type: "text", text: `colour: ${answer.colour}` }] };
    return inputRequired({ inputRequests: { colour: inputRequired.elicit({ message: "Which colour?", requestedSchema: colour }) } });
  },
);

server.tool(
  { name: "count", description: "Counts to three, reporting progress and a log line per step.", inputSchema: z.object({}) },
  async (_input, ctx) => {
    for (let i = 1; i <= 3; i++) {
      await ctx.reportProgress(i, 3, `step ${i}`);
      await ctx.sendLog("info", `counted ${i}`);
    }
    return { content: [{ type: "text", text: "counted to 3" }] };
  },
);

await server.listen(port, { host: "127.0.0.1" });
console.log(`LISTENING http://127.0.0.1:${port}/mcp`);
