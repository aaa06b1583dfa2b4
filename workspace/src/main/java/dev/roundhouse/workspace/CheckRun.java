package dev.roundhouse.workspace;

/**
 * One CI check of a pull request.
 *
 * @param status     queued, in_progress or completed (the forge's words, lower case)
 * @param conclusion success, failure, ... once completed, else null
 */
public record CheckRun(String name, String status, String conclusion) {}
