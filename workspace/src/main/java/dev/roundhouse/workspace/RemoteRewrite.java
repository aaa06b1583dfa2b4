package dev.roundhouse.workspace;

/**
 * A fetch showed that a base branch was rewritten on its remote (a force-push): the remote-tracking ref's old tip is
 * not an ancestor of its new one. The engine only reports it; the caller flags the tasks cut from the old history.
 *
 * @param repository the main checkout's top-level folder
 * @param remote     the remote fetched ({@code origin})
 * @param baseBranch the base branch (short name)
 * @param oldTip     the remote-tracking ref's tip before the fetch
 * @param newTip     its tip after
 * @param message    a sentence for the user
 */
public record RemoteRewrite(String repository, String remote, String baseBranch, String oldTip, String newTip, String message) {}
