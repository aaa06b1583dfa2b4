/**
 * The LSP face ({@code roundhouse lsp}): {@link dev.roundhouse.lspbridge.LspBridge} serves one editor over
 * stdio with LSP4J and attaches to the running hub over its HTTP API ({@link
 * dev.roundhouse.lspbridge.HubAddress}); {@link dev.roundhouse.lspbridge.RoundhouseProtocol} and {@link
 * dev.roundhouse.lspbridge.RoundhouseClient} are the {@code roundhouse/*} extensions. The ACP face comes
 * later. Faces hold no state and call the hub API only; see {@code docs/lsp-protocol.md}.
 */
package dev.roundhouse.lspbridge;
