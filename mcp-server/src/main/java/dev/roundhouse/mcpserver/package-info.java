/**
 * The MCP face: the hub's operation registry served as MCP tools over Streamable HTTP at {@code /mcp} on
 * the hub's own server (see {@link dev.roundhouse.mcpserver.McpServers}). Nothing is declared twice: names,
 * descriptions, schemas and annotations all come from the registry. See {@code docs/mcp.md}.
 */
package dev.roundhouse.mcpserver;
