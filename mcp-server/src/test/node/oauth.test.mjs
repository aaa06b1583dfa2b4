// The MCP TypeScript SDK's OAuth client (an OAuthClientProvider given to StreamableHTTPClientTransport) against a
// running Roundhouse hub with no token configured: discovery, registration, the browser step, consent answered
// through the hub's decision_answer operation, the code exchange, tools, and revocation. Started by
// McpSdkOAuthTest (module mcp-server), which passes:
//   RH_MCP_URL    the hub's /mcp URL     RH_HUB_URL  its base URL     RH_HUB_TOKEN  the hub's API token
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';

const mcpUrl = new URL(process.env.RH_MCP_URL);
const hubUrl = process.env.RH_HUB_URL;
const hubToken = process.env.RH_HUB_TOKEN;
const redirect = 'http://127.0.0.1:33418/callback';

/** An OAuthClientProvider that keeps everything in memory and records where it was sent to sign in. */
class MemoryProvider {
  constructor() {
    this.client = undefined;
    this.saved = undefined;
    this.verifier = undefined;
    this.authorizationUrls = [];
  }
  get redirectUrl() { return redirect; }
  get clientMetadata() {
    return { client_name: 'Node SDK test', redirect_uris: [redirect], grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  state() { return 'node-state'; }
  clientInformation() { return this.client; }
  saveClientInformation(information) { this.client = information; }
  tokens() { return this.saved; }
  saveTokens(tokens) { this.saved = tokens; }
  redirectToAuthorization(url) { this.authorizationUrls.push(url); }
  saveCodeVerifier(verifier) { this.verifier = verifier; }
  codeVerifier() { return this.verifier; }
  invalidateCredentials(scope) {
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
  }
}

async function hubOp(name, input) {
  const response = await fetch(`${hubUrl}/api/ops/${name}`, {
    method: 'POST', headers: { Authorization: `Bearer ${hubToken}`, 'Content-Type': 'application/json' }, body: JSON.stringify(input),
  });
  assert.equal(response.status, 200, `${name}: ${await response.clone().text()}`);
  return response.json();
}

/** What the user's browser does: open the sign-in page, (the user approves the decision), follow the outcome. */
async function browserSignIn(authorizationUrl, answer) {
  const page = await fetch(authorizationUrl, { redirect: 'manual' });
  const html = await page.text();
  assert.equal(page.status, 200, html);
  assert.match(html, /Allow Node SDK test to use Roundhouse as you\?/);
  const request = html.match(/name="request" value="([^"]+)"/)[1];
  const nonce = html.match(/name="nonce" value="([^"]+)"/)[1];
  const decision = Number(html.match(/decision <strong>#(\d+)<\/strong>/)[1]);
  const pending = await hubOp('decision_list', {});
  const listed = JSON.stringify(pending);
  assert.ok(listed.includes('Allow Node SDK test from 127.0.0.1:33418 to use Roundhouse as you?'), listed);
  await hubOp('decision_answer', { decision, answer });
  const wait = await fetch(`${hubUrl}/oauth/authorize/wait`, { method: 'POST', body: new URLSearchParams({ request, nonce }) });
  const { location } = await wait.json();
  return new URL(location);
}

test('the SDK OAuth client signs in with consent given as a hub decision, lists tools, and loses access when revoked', async () => {
  const provider = new MemoryProvider();
  const first = new Client({ name: 'node-oauth', version: '1.0.0' });
  await assert.rejects(first.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })), UnauthorizedError);
  assert.equal(provider.authorizationUrls.length, 1);
  const authorizationUrl = provider.authorizationUrls[0];
  assert.equal(authorizationUrl.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(authorizationUrl.searchParams.get('resource'), mcpUrl.href);

  const callback = await browserSignIn(authorizationUrl, 'allow');
  assert.equal(callback.origin + callback.pathname, redirect);
  assert.equal(callback.searchParams.get('state'), 'node-state');
  const transport = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
  await transport.finishAuth(callback.searchParams.get('code'));
  assert.ok(provider.saved.access_token && provider.saved.refresh_token);

  const client = new Client({ name: 'node-oauth', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const name of ['task_create', 'decision_answer', 'mcp_client_list', 'mcp_client_revoke']) {
    assert.ok(names.includes(name), `${name} in ${names}`);
  }
  const listed = await client.callTool({ name: 'mcp_client_list', arguments: {} });
  const mine = listed.structuredContent.clients.find((c) => c.client_id === provider.client.client_id);
  assert.equal(mine.client_name, 'Node SDK test');
  assert.equal(mine.authorized, true);

  // Revoked: the next request is refused, the refresh fails with invalid_client, and the SDK starts over.
  await hubOp('mcp_client_revoke', { client_id: mine.client_id });
  await assert.rejects(client.listTools());
  assert.equal(provider.authorizationUrls.length, 2, 'a new sign-in was started');
  assert.notEqual(provider.client.client_id, mine.client_id, 'the client registered again');
  await client.close().catch(() => {});
});

test('a denied sign-in gives the SDK no code and no tokens', async () => {
  const provider = new MemoryProvider();
  const client = new Client({ name: 'node-denied', version: '1.0.0' });
  await assert.rejects(client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider })), UnauthorizedError);
  const callback = await browserSignIn(provider.authorizationUrls[0], 'deny');
  assert.equal(callback.searchParams.get('error'), 'access_denied');
  assert.equal(callback.searchParams.get('code'), null);
  assert.equal(provider.saved, undefined);
});
