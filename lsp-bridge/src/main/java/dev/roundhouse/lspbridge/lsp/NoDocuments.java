package dev.roundhouse.lspbridge.lsp;

import org.eclipse.lsp4j.DidChangeConfigurationParams;
import org.eclipse.lsp4j.DidChangeNotebookDocumentParams;
import org.eclipse.lsp4j.DidChangeTextDocumentParams;
import org.eclipse.lsp4j.DidChangeWatchedFilesParams;
import org.eclipse.lsp4j.DidCloseNotebookDocumentParams;
import org.eclipse.lsp4j.DidCloseTextDocumentParams;
import org.eclipse.lsp4j.DidOpenNotebookDocumentParams;
import org.eclipse.lsp4j.DidOpenTextDocumentParams;
import org.eclipse.lsp4j.DidSaveNotebookDocumentParams;
import org.eclipse.lsp4j.DidSaveTextDocumentParams;
import org.eclipse.lsp4j.services.NotebookDocumentService;
import org.eclipse.lsp4j.services.TextDocumentService;
import org.eclipse.lsp4j.services.WorkspaceService;

/**
 * The bridge offers no language features: document and workspace notifications a client sends anyway are
 * accepted and ignored. Stateless.
 */
final class NoDocuments implements TextDocumentService, WorkspaceService, NotebookDocumentService {
  static final NoDocuments INSTANCE = new NoDocuments();

  private NoDocuments() {}

  @Override
  public void didOpen(DidOpenTextDocumentParams params) {}

  @Override
  public void didChange(DidChangeTextDocumentParams params) {}

  @Override
  public void didClose(DidCloseTextDocumentParams params) {}

  @Override
  public void didSave(DidSaveTextDocumentParams params) {}

  @Override
  public void didChangeConfiguration(DidChangeConfigurationParams params) {}

  @Override
  public void didChangeWatchedFiles(DidChangeWatchedFilesParams params) {}

  @Override
  public void didOpen(DidOpenNotebookDocumentParams params) {}

  @Override
  public void didChange(DidChangeNotebookDocumentParams params) {}

  @Override
  public void didSave(DidSaveNotebookDocumentParams params) {}

  @Override
  public void didClose(DidCloseNotebookDocumentParams params) {}
}
