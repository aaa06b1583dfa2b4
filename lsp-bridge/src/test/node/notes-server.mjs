// A small MCP server for the ACP mcpServers test (acp-mcp.test.mjs): one tool, lookup_note, whose answer
// shows that the server got the secret the ACP client gave for it, without echoing the value. Over stdio
// (the default) the secret is the NOTES_TOKEN env; with --http it serves Streamable HTTP on 127.0.0.1 (a free
// port, printed as "listening <url>"), stateless, and answers 401 unless the request carries
// "Authorization: Bearer <NOTES_TOKEN>" (the header the ACP client gave).
import http from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

const token = process.env.NOTES_TOKEN ?? "";

function notes(transport) {
  const server = new McpServer({ name: "notes", version: "1.0.0" });
  server.registerTool(
    "lookup_note",
    { description: "Looks up the team's note on a topic", inputSchema: { topic: z.string() } },
    async ({ topic }) => ({
      content: [{ type: "text", text: `note on ${topic}: the token has ${token.length} characters (over ${transport})` }],
    }),
  );
  return server;
}

if (process.argv[2] !== "--http") {
  await notes("stdio").connect(new StdioServerTransport());
} else {
  const server = http.createServer(async (req, res) => {
    if (req.headers.authorization !== `Bearer ${token}`) {
      res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "unauthorized" }));
      return;
    }
    let body = "";
    for await (const chunk of req) {
      body += chunk;
    }
    // Stateless: a server and transport per request, as the SDK's stateless example does.
    const mcp = notes("http");
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => {
      transport.close();
      mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body ? JSON.parse(body) : undefined);
  });
  server.listen(0, "127.0.0.1", () => {
    console.log(`listening http://127.0.0.1:${server.address().port}/mcp`);
  });
}
