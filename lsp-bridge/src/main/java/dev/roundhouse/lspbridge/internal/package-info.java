/**
 * What the LSP and ACP faces share and no one else uses: reading what can be read of a message too large to
 * keep ({@link dev.roundhouse.lspbridge.internal.MessageHead}).
 */
package dev.roundhouse.lspbridge.internal;
