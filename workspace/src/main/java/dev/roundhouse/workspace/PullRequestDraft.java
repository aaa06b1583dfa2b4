package dev.roundhouse.workspace;

/**
 * A pull request to open: {@code head} (the task's branch) into {@code base}, from {@code repository}'s checkout.
 */
public record PullRequestDraft(String repository, String title, String body, String base, String head) {}
