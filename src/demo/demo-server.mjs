// The companion's demo server ("Try a question" on the first run): a small stdio MCP server that
// needs no network and no account. Its tools ask the person something, so the main job of the
// app (a question from a server, answered on the desktop) can be seen in seconds.
//   ask_coffee_order  asks a form question (drink, size, name) and says what it would brew
//   open_docs_page    asks to open a web page (a URL question); it fetches nothing itself
// Plain ESM with the SDK v2 server, run as `node src/demo/demo-server.mjs`, no build step.
// `inputRequired` serves both protocol eras: a 2025 client gets a pushed elicitation/create.
import { McpServer, inputRequired, inputResponse, acceptedContent } from "@modelcontextprotocol/server";
import { serveStdio } from "@modelcontextprotocol/server/stdio";

const DOCS_URL = "https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation";

const orderSchema = {
  type: "object",
  properties: {
    drink: { type: "string", title: "Drink", enum: ["espresso", "flat white", "tea"], default: "flat white" },
    size: { type: "string", title: "Size", oneOf: [{ const: "s", title: "Small" }, { const: "m", title: "Medium" }, { const: "l", title: "Large" }] },
    name: { type: "string", title: "Name on the cup", maxLength: 40 },
  },
  required: ["drink", "size"],
};

const text = (t) => ({ content: [{ type: "text", text: t }] });

function makeServer() {
  const server = new McpServer({ name: "toolnexus-demo", version: "1.0.0" }, { capabilities: { tools: {} } });

  server.registerTool("ask_coffee_order", { title: "Order a coffee", description: "Asks you what to brew (a form question) and answers with the order" }, async (ctx) => {
    const view = inputResponse(ctx.mcpReq.inputResponses, "order");
    if (view.kind === "elicit" && view.action === "decline") return text("No coffee, then.");
    if (view.kind === "elicit" && view.action === "cancel") return text("The order was cancelled.");
    const order = acceptedContent(ctx.mcpReq.inputResponses, "order");
    if (order && typeof order.drink === "string") {
      const sizes = { s: "small", m: "medium", l: "large" };
      const who = typeof order.name === "string" && order.name !== "" ? ` for ${order.name}` : "";
      return text(`Brewing a ${sizes[order.size] ?? "regular"} ${order.drink}${who}.`);
    }
    return inputRequired({ inputRequests: { order: inputRequired.elicit({ message: "What should I brew for you?", requestedSchema: orderSchema }) } });
  });

  server.registerTool("open_docs_page", { title: "Open a web page", description: "Asks you to open a page in your browser (a URL question)" }, async (ctx) => {
    const view = inputResponse(ctx.mcpReq.inputResponses, "page");
    if (view.kind === "elicit") return text(view.action === "accept" ? "You opened the page." : `You did not open the page (${view.action}).`);
    return inputRequired({
      inputRequests: { page: inputRequired.elicitUrl({ message: "Open the page that explains how servers ask you questions?", url: DOCS_URL }) },
    });
  });
  return server;
}

serveStdio(() => makeServer());
