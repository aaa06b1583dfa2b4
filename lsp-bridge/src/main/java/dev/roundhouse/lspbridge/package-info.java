/**
 * The LSP face ({@code roundhouse lsp}) and the ACP agent face ({@code roundhouse acp}).
 *
 * <p>Empty until the editor issues land; faces hold no state and call the hub API only.
 */
package dev.roundhouse.lspbridge;
