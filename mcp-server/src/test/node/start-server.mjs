// The smallest MCP server the MCP TypeScript SDK makes: McpServer + StdioServerTransport, as its documentation
// sets one up, with one tool. The baseline of `roundhouse bench start` (module app, StartBenchmark): the time
// from starting `node start-server.mjs` to its answer to `initialize` on stdout. Exits when stdin closes.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'typescript-start', version: '1.0.0' });
server.registerTool(
  'echo',
  { description: 'Echoes its text.', inputSchema: { text: z.string() } },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);
await server.connect(new StdioServerTransport());
