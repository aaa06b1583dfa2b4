/**
 * The MCP endpoint's own OAuth 2.1 authorization server, for local use (the MCP specification's authorization
 * section): protected resource metadata (RFC 9728), authorization server metadata (RFC 8414), dynamic client
 * registration (RFC 7591), the authorization code grant with PKCE S256 and refresh tokens bound to their client,
 * resource indicators (RFC 8707). Consent is a hub decision of kind {@value
 * dev.roundhouse.mcpserver.oauth.McpAuthorization#CONSENT}, so every face shows it. {@link
 * dev.roundhouse.mcpserver.oauth.McpAuthorization} is the public entry; the rest is package-private.
 */
package dev.roundhouse.mcpserver.oauth;
