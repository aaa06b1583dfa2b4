// The MCP TypeScript SDK's own Streamable HTTP server, as its documentation sets it up (McpServer +
// StreamableHTTPServerTransport, one server and one transport per session, session ids from randomUUID),
// serving one tool equivalent to the hub's read-only `task_get`: same name, an input schema it validates
// (zod), a structured result plus the same JSON as text. The answer is the hub's own answer for the seeded
// task, read from a file, so both servers send the same number of bytes.
//
// Started by `roundhouse bench mcp` (module app, McpBenchmark), never by hand:
//   node bench-server.mjs <answer.json> <task id>
// Binds 127.0.0.1 on a free port and prints one line, `listening http://127.0.0.1:PORT/mcp`, on stdout.
// Exits when stdin closes (the benchmark ending, however it ends).
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const [answerFile, taskArg] = process.argv.slice(2);
const answerText = readFileSync(answerFile, 'utf8');
const answer = JSON.parse(answerText);
const taskId = Number(taskArg);

function newServer() {
  const server = new McpServer({ name: 'typescript-bench', version: '1.0.0' });
  server.registerTool(
    'task_get',
    {
      description: 'One task with its tags and dependencies.',
      inputSchema: { task: z.number().int().positive() },
      outputSchema: { id: z.number().int() },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ task }) => {
      if (task !== taskId) {
        return { isError: true, content: [{ type: 'text', text: `no task ${task}` }] };
      }
      return { content: [{ type: 'text', text: answerText }], structuredContent: answer };
    },
  );
  return server;
}

const transports = new Map();

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function refuse(res, status, message) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32000, message } }));
}

const http = createServer(async (req, res) => {
  try {
    const sessionId = req.headers['mcp-session-id'];
    if (req.method !== 'POST') {
      const transport = sessionId && transports.get(sessionId);
      if (!transport) {
        refuse(res, 400, 'no such session');
        return;
      }
      await transport.handleRequest(req, res);
      return;
    }
    const body = JSON.parse(await readBody(req));
    let transport = sessionId && transports.get(sessionId);
    if (!transport) {
      if (sessionId || !isInitializeRequest(body)) {
        refuse(res, sessionId ? 404 : 400, sessionId ? 'Session not found' : 'initialize first');
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => transports.set(id, transport),
      });
      transport.onclose = () => transport.sessionId && transports.delete(transport.sessionId);
      await newServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  } catch (error) {
    if (!res.headersSent) {
      refuse(res, 500, String(error));
    }
  }
});

http.keepAliveTimeout = 60_000;
http.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening http://127.0.0.1:${http.address().port}/mcp\n`);
});
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
