/**
 * The LSP face ({@code roundhouse lsp}): {@link dev.roundhouse.lspbridge.lsp.LspBridge} serves one editor over
 * stdio with LSP4J and attaches to the running hub through the hub client ({@code dev.roundhouse.hubclient});
 * {@link dev.roundhouse.lspbridge.lsp.RoundhouseProtocol} and {@link dev.roundhouse.lspbridge.lsp.RoundhouseClient}
 * are the {@code roundhouse/*} extensions. A face holds no state and calls the hub API only; see
 * {@code docs/lsp-protocol.md}.
 */
package dev.roundhouse.lspbridge.lsp;
