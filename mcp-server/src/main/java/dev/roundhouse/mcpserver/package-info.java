/**
 * The MCP face: Streamable HTTP mounted in the hub's server, and stdio.
 *
 * <p>Empty until the MCP issue lands; it will serve the hub's operation registry as MCP tools, so nothing is
 * declared twice.
 */
package dev.roundhouse.mcpserver;
