/**
 * The LSP face ({@code roundhouse lsp}): {@link dev.roundhouse.lspbridge.LspBridge} serves one editor over
 * stdio with LSP4J and attaches to the running hub over its HTTP API ({@link
 * dev.roundhouse.lspbridge.HubAddress}); {@link dev.roundhouse.lspbridge.RoundhouseProtocol} and {@link
 * dev.roundhouse.lspbridge.RoundhouseClient} are the {@code roundhouse/*} extensions. The ACP face ({@code
 * roundhouse acp}) is {@link dev.roundhouse.lspbridge.AcpAgent}. Faces hold no state and call the hub API
 * only; see {@code docs/lsp-protocol.md} and {@code docs/acp.md}. The CLI shares the hub client: {@link
 * dev.roundhouse.lspbridge.HubHttp}, {@link dev.roundhouse.lspbridge.SseReader} and {@link
 * dev.roundhouse.lspbridge.ReconnectPause}.
 */
package dev.roundhouse.lspbridge;
