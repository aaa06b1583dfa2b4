package dev.roundhouse.workspace;

/**
 * A task's workspace as the hub records it, and the input of every read, merge and cleanup.
 *
 * @param project    the project's name
 * @param taskId     the task's id
 * @param repository the main checkout's top-level folder
 * @param branch     the task's branch (short name)
 * @param path       the linked worktree's folder
 * @param baseBranch the branch the task is cut from and merged into (short name)
 * @param baseCommit the commit the worktree was cut from (pinned; for base-rewrite detection)
 */
public record TaskWorktree(String project, long taskId, String repository, String branch, String path,
    String baseBranch, String baseCommit) {}
