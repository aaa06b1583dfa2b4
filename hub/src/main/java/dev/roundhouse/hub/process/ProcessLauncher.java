package dev.roundhouse.hub.process;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a child process on behalf of something the hub runs (a turn), so that it can be ended with
 * everything it starts: the runner hands each turn one ({@link ProcessScope}), and a driver starts its agent
 * CLI and its commands through it instead of calling {@link ProcessBuilder#start} itself. Implementations
 * are thread-safe.
 */
public interface ProcessLauncher {
  /**
   * Starts the builder's command (its directory, environment and redirects as set) in a process group of
   * its own, and under whatever else contains it here (a cgroup, a parent-death signal, a run marker in its
   * environment). The builder's command is left as the caller set it.
   *
   * @throws IOException when it cannot be started
   */
  Process start(ProcessBuilder builder) throws IOException;

  /**
   * A launcher that only starts each child in a process group of its own ({@code setsid}, where it exists),
   * for what runs outside any turn (a probe of an agent CLI's version) and for tests.
   */
  static ProcessLauncher ownGroup() {
    return builder -> {
      List<String> command = builder.command();
      if (Binaries.SETSID.isEmpty()) {
        return builder.start();
      }
      List<String> wrapped = new ArrayList<>(command.size() + 1);
      wrapped.add(Binaries.SETSID.get());
      wrapped.addAll(command);
      try {
        return builder.command(wrapped).start();
      } finally {
        builder.command(command);
      }
    };
  }
}
