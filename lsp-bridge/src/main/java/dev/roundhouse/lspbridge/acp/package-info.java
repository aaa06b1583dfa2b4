/**
 * The ACP face ({@code roundhouse acp}): {@link dev.roundhouse.lspbridge.acp.AcpAgent} is an Agent Client
 * Protocol agent on stdio whose messages are the ACP Java SDK's schema records ({@code AcpSchema}), over
 * the running hub through the hub client ({@code dev.roundhouse.hubclient}). An ACP session is a Roundhouse
 * task. A face holds no state and calls the hub API only; see {@code docs/acp.md}.
 */
package dev.roundhouse.lspbridge.acp;
