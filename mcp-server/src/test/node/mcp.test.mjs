// The MCP TypeScript SDK client against a running Roundhouse hub, over Streamable HTTP and over stdio
// (`roundhouse mcp`). Started by McpNodeClientTest (module app), which passes:
//   RH_MCP_URL     the hub's /mcp URL          RH_MCP_TOKEN  the MCP token
//   RH_STDIO_CMD   a JSON array: the command line of `roundhouse mcp`
//   ROUNDHOUSE_HOME the hub's home (for the stdio command)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const url = process.env.RH_MCP_URL;
const token = process.env.RH_MCP_TOKEN;
const stdioCommand = process.env.RH_STDIO_CMD ? JSON.parse(process.env.RH_STDIO_CMD) : null;

function httpTransport() {
  return new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
}

function stdioTransport() {
  const [command, ...args] = stdioCommand;
  return new StdioClientTransport({ command, args, env: { ...process.env }, stderr: 'inherit' });
}

async function connect(name, transport) {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  return client;
}

function structured(result) {
  assert.equal(result.isError ?? false, false, JSON.stringify(result.content));
  return result.structuredContent;
}

function exercise(transportName, makeTransport) {
  test(`${transportName}: lists the operations as tools and calls them`, async () => {
    const client = await connect(`node-${transportName}`, makeTransport());
    try {
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name);
      for (const name of ['task_create', 'task_get', 'project_board', 'decision_answer']) {
        assert.ok(names.includes(name), `${name} in ${names}`);
      }
      const taskGet = tools.find((t) => t.name === 'task_get');
      assert.equal(taskGet.annotations.readOnlyHint, true);
      assert.ok(taskGet.outputSchema, 'task_get has an output schema');

      const project = `node-${transportName}-${Date.now()}`;
      structured(await client.callTool({ name: 'project_create', arguments: { name: project, path: process.env.RH_PROJECT_DIR } }));
      const task = structured(await client.callTool({ name: 'task_create', arguments: { project, title: 'From Node' } }));
      assert.equal(task.title, 'From Node');
      assert.equal(task.created_by, `client:node-${transportName}`);

      const missing = await client.callTool({ name: 'task_get', arguments: { task: 999999 } });
      assert.equal(missing.isError, true);
      assert.match(missing.content[0].text, /999999/);
      assert.doesNotMatch(missing.content[0].text, /Exception|\tat /);
    } finally {
      await client.close();
    }
  });

  test(`${transportName}: reads resources, completes ids, and gets resources/updated when a subscribed task changes`, async () => {
    const client = await connect(`node-${transportName}-watch`, makeTransport());
    try {
      const project = `watch-${transportName}-${Date.now()}`;
      structured(await client.callTool({ name: 'project_create', arguments: { name: project, path: process.env.RH_PROJECT_DIR } }));
      const task = structured(await client.callTool({ name: 'task_create', arguments: { project, title: 'Watch me' } }));
      const taskUri = `roundhouse://tasks/${task.id}`;

      const { resourceTemplates } = await client.listResourceTemplates();
      assert.ok(resourceTemplates.some((t) => t.uriTemplate === 'roundhouse://tasks/{id}'));
      const read = await client.readResource({ uri: taskUri });
      assert.equal(JSON.parse(read.contents[0].text).title, 'Watch me');
      const board = await client.readResource({ uri: `roundhouse://projects/${project}/board` });
      assert.equal(JSON.parse(board.contents[0].text).project.name, project);

      const completion = await client.complete({
        ref: { type: 'ref/resource', uri: 'roundhouse://projects/{project}/board' },
        argument: { name: 'project', value: project.slice(0, 8) },
      });
      assert.ok(completion.completion.values.includes(project), JSON.stringify(completion));

      const updated = new Promise((resolve) => {
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
          if (n.params.uri === taskUri) resolve(n.params.uri);
        });
      });
      await client.subscribeResource({ uri: taskUri });
      structured(await client.callTool({ name: 'task_update', arguments: { task: task.id, title: 'Watched' } }));
      const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error(`no resources/updated for ${taskUri} within 10 s`)), 10_000));
      assert.equal(await Promise.race([updated, timeout]), taskUri);
      const after = await client.readResource({ uri: taskUri });
      assert.equal(JSON.parse(after.contents[0].text).title, 'Watched');
    } finally {
      await client.close();
    }
  });

  test(`${transportName}: gets resources/updated for an extension's resource: the calendar audit, when a calendar tool is called`, async () => {
    const client = await connect(`node-${transportName}-audit`, makeTransport());
    try {
      const { resources } = await client.listResources();
      assert.ok(resources.some((r) => r.uri === 'roundhouse://calendar/audit'), 'the calendar extension offers its audit');
      const seen = [];
      let arrived = () => {};
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
        seen.push(n.params.uri);
        arrived();
      });
      const audits = (count) => new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${count} updates of the audit not within 10 s; had ${seen}`)), 10_000);
        arrived = () => {
          if (seen.filter((uri) => uri === 'roundhouse://calendar/audit').length >= count) {
            clearTimeout(timer);
            resolve();
          }
        };
        arrived();
      });
      await client.subscribeResource({ uri: 'roundhouse://calendar/audit' });
      await client.subscribeResource({ uri: 'roundhouse://calendars' });
      structured(await client.callTool({ name: 'calendar_list', arguments: {} }));
      await audits(1);
      structured(await client.callTool({ name: 'calendar_list', arguments: {} }));
      await audits(2);
      // updates reach a session in the order they were sent: anything the first call touched came before the second audit
      assert.deepEqual(seen, ['roundhouse://calendar/audit', 'roundhouse://calendar/audit'], 'a query changes the audit, not the calendars');
      const audit = JSON.parse((await client.readResource({ uri: 'roundhouse://calendar/audit' })).contents[0].text);
      assert.equal(audit.entries[0].operation, 'calendar_list');
      assert.equal(audit.entries[0].actor, `client:node-${transportName}-audit`);
    } finally {
      await client.close();
    }
  });

  test(`${transportName}: a quick call with a progress token is answered with no stray progress, and gets a prompt`, async () => {
    const client = await connect(`node-${transportName}-progress`, makeTransport());
    const errors = [];
    client.onerror = (error) => errors.push(error.message);
    try {
      const project = `node-${transportName}-p-${Date.now()}`;
      structured(await client.callTool({ name: 'project_create', arguments: { name: project, path: process.env.RH_PROJECT_DIR } }));
      // Progress that reached the client with the answer would be handled after it, for a token the SDK has
      // forgotten: an error here, and a dropped stdio server in Claude Code. The hub sends heartbeats only
      // while a call is still running (every 5 s), so calls this quick get none.
      for (let i = 0; i < 20; i++) {
        const progress = [];
        const listed = structured(await client.callTool(
          { name: 'list_tasks', arguments: { project } }, undefined, { onprogress: (p) => progress.push(p) }));
        assert.equal(listed.summary, `list_tasks found no tasks for project ${project}`);
        assert.deepEqual(progress, []);
      }
      const { prompts } = await client.listPrompts();
      assert.deepEqual(prompts.map((p) => p.name).sort(), ['plan_feature', 'summarise_board']);
      const plan = await client.getPrompt({ name: 'plan_feature', arguments: { project, feature: 'Dark mode' } });
      assert.match(plan.messages[0].content.text, /Dark mode/);
      assert.equal(plan.messages[1].content.type, 'resource');
      assert.equal(plan.messages[1].content.resource.uri, `roundhouse://projects/${project}/board`);
      assert.deepEqual(errors, [], 'no progress for a token the client had already retired');
    } finally {
      await client.close();
    }
  });
}

exercise('http', httpTransport);
if (stdioCommand) {
  exercise('stdio', stdioTransport);
} else {
  test('stdio', { skip: 'RH_STDIO_CMD not set' }, () => {});
}
