package dev.roundhouse.services;

import java.util.List;
import java.util.Map;

/**
 * What a terminal session runs.
 *
 * @param command the program and arguments; empty means the user's login shell ({@code $SHELL}, else
 *     {@code /bin/bash}, else {@code /bin/sh}), interactive
 * @param cwd the working directory (the project or a task's worktree), an absolute path
 * @param env variables added to the hub's environment (the caller puts the project's {@code PORT} here)
 * @param columns the initial width
 * @param rows the initial height
 */
public record TerminalSpec(List<String> command, String cwd, Map<String, String> env, int columns, int rows) {
  public TerminalSpec {
    command = command == null ? List.of() : List.copyOf(command);
    if (cwd == null || !cwd.startsWith("/")) {
      throw new ServiceException("a terminal needs an absolute working directory, not " + cwd);
    }
    env = env == null ? Map.of() : Map.copyOf(env);
    columns = columns <= 0 ? 80 : columns;
    rows = rows <= 0 ? 24 : rows;
  }

  public static TerminalSpec shell(String cwd, Map<String, String> env) {
    return new TerminalSpec(List.of(), cwd, env, 80, 24);
  }
}
