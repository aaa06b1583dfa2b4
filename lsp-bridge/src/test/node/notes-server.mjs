// A small MCP stdio server for the ACP mcpServers test (acp-mcp.test.mjs): one tool, lookup_note, whose answer
// shows that the server ran with the env the ACP client gave it (NOTES_TOKEN), without echoing the value.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer({ name: "notes", version: "1.0.0" });
server.registerTool(
  "lookup_note",
  { description: "Looks up the team's note on a topic", inputSchema: { topic: z.string() } },
  async ({ topic }) => ({
    content: [{ type: "text", text: `note on ${topic}: the token has ${(process.env.NOTES_TOKEN ?? "").length} characters` }],
  }),
);
await server.connect(new StdioServerTransport());
