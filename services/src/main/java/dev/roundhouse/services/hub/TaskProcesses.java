package dev.roundhouse.services.hub;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.spi.TaskProcessStopper;
import dev.roundhouse.services.ServiceException;
import dev.roundhouse.services.ServiceState;
import dev.roundhouse.services.ServiceStatus;
import dev.roundhouse.services.TerminalSession;
import dev.roundhouse.services.Terminals;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Ends a task's processes before its worktree goes (the workspace module's reclaim and sweep ask through
 * {@code ExtensionContext.stopTaskProcesses}): every service declared for the task or running in its folder (stopped
 * as {@code service_stop} does, its wish to run dropped so no boot restarts it in a folder that is gone), and every
 * terminal opened for the task, opened in its folder, or whose shell's current directory is in it (hung up). A
 * service whose group does not end, or a terminal that does not exit, is an error naming it, so the caller keeps
 * the folder.
 *
 * <p>Thread-safe: stateless beyond {@link HubServices} and the engine's {@link Terminals}; holds no lock.
 */
final class TaskProcesses implements TaskProcessStopper {
  private final HubServices services;
  private final Terminals terminals;

  TaskProcesses(HubServices services, Terminals terminals) {
    this.services = services;
    this.terminals = terminals;
  }

  @Override
  public List<String> stop(Actor actor, long task, Path folder) {
    List<String> stopped = new ArrayList<>();
    for (ProjectServices project : services.all().values()) {
      for (ServiceRecords.StoredDefinition stored : project.declaredAll()) {
        String name = stored.definition().name();
        boolean ours = Long.valueOf(task).equals(stored.task()) || inside(stored.definition().cwd(), folder);
        if (ours && running(project.supervisor().state(name).status())) {
          stopped.add(stopService(actor, task, project, name));
        }
      }
    }
    for (TerminalSession terminal : terminals.list()) {
      boolean ours = String.valueOf(task).equals(terminal.spec().env().get("ROUNDHOUSE_TASK"))
          || inside(terminal.spec().cwd(), folder) || currentDirectory(terminal.pid()).filter(cwd -> inside(cwd, folder)).isPresent();
      if (ours && terminal.exitCode().isEmpty()) {
        terminal.close();
        if (terminal.exitCode().isEmpty()) {
          throw new RoundhouseException.Conflict("terminal " + terminal.id() + " (pid " + terminal.pid() + ") of task " + task
              + " did not exit when hung up");
        }
        stopped.add("hung up terminal " + terminal.id() + " (pid " + terminal.pid() + ") in " + terminal.spec().cwd());
      }
    }
    return stopped;
  }

  private String stopService(Actor actor, long task, ProjectServices project, String name) {
    services.records().unwant(project.projectId(), name);
    project.actingFor(name, actor);
    ServiceState state;
    try {
      state = project.supervisor().stop(name);
    } catch (ServiceException e) {
      throw new RoundhouseException.Conflict("could not stop service " + name + " of project " + project.projectName()
          + " for task " + task + ": " + e.getMessage());
    }
    if (running(state.status())) {
      throw new RoundhouseException.Conflict("service " + name + " of project " + project.projectName() + " for task " + task
          + " is still " + state.status().name().toLowerCase() + " after a stop");
    }
    return "stopped service " + name + " of project " + project.projectName();
  }

  /** Whether a process of the service is alive or about to be (a restart pending after a backoff). */
  private static boolean running(ServiceStatus status) {
    return status.active() || status == ServiceStatus.BACKOFF;
  }

  private static boolean inside(String path, Path folder) {
    if (path == null) {
      return false;
    }
    Path candidate = Path.of(path).toAbsolutePath().normalize();
    Path root = folder.toAbsolutePath().normalize();
    return candidate.startsWith(root) || real(candidate).startsWith(real(root));
  }

  private static Path real(Path path) {
    try {
      return path.toRealPath();
    } catch (IOException e) {
      return path;
    }
  }

  /** Where the process works now ({@code /proc/<pid>/cwd}), when the system says. */
  private static Optional<String> currentDirectory(long pid) {
    try {
      return Optional.of(Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "cwd")).toString());
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return Optional.empty();
    }
  }
}
