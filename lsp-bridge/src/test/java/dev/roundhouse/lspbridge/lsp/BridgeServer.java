package dev.roundhouse.lspbridge.lsp;

import org.eclipse.lsp4j.services.LanguageServer;

/** The bridge as a Java client sees it: the standard server plus {@code roundhouse/*}. */
interface BridgeServer extends LanguageServer, RoundhouseProtocol {}
