package dev.roundhouse.workspace.hub;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.HubExtension;
import dev.roundhouse.hub.testing.Waits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Reclaim ends the task's processes first, through the hub's seam ({@code ExtensionContext.stopTaskProcesses}), with
 * a real process running in the task's worktree: ended before the worktree goes; one that cannot be ended keeps
 * everything; a reclaim that would keep (unlanded work, a running turn) ends nothing.
 */
class ReclaimProcessesTest {
  private final Sleepers sleepers = new Sleepers();
  private WorkspaceHub w;

  @BeforeEach
  void open() {
    w = new WorkspaceHub(settings -> settings, List.of(sleepers));
    w.addProject("web", w.project);
  }

  @AfterEach
  void close() {
    sleepers.processes.values().forEach(Process::destroyForcibly);
    w.close();
  }

  @Test
  void reclaimEndsTheTasksProcessInItsWorktreeBeforeRemovingIt() throws Exception {
    long task = landedTask("Served");
    Path folder = folder(task);
    Process sleeper = sleepers.start(task, folder);

    JsonNode reclaimed = w.op("task_reclaim", "task", task);

    assertThat(reclaimed.path("result").path("outcome").asText()).as(reclaimed.toString()).isEqualTo("RECLAIMED");
    assertThat(reclaimed.path("stopped").toString()).contains("ended sleep " + sleeper.pid());
    assertThat(sleeper.isAlive()).isFalse();
    assertThat(sleepers.folderExistedWhenAsked).containsExactly(true);
    assertThat(folder).doesNotExist();
    assertThat(w.git(w.project, "branch", "--list", "roundhouse/*")).isEmpty();
  }

  @Test
  void aProcessThatCannotBeEndedKeepsTheWorktreeAndTheBranch() throws Exception {
    long task = landedTask("Stubborn");
    Path folder = folder(task);
    Process sleeper = sleepers.start(task, folder);
    sleepers.refuse = true;

    JsonNode reclaimed = w.op("task_reclaim", "task", task).path("result");

    assertThat(reclaimed.path("outcome").asText()).isEqualTo("KEPT");
    assertThat(reclaimed.path("reason").asText()).contains("processes could not all be ended").contains("would not end")
        .contains("nothing was removed");
    assertThat(sleeper.isAlive()).isTrue();
    assertThat(folder).isDirectory();
    assertThat(w.git(w.project, "branch", "--list", "roundhouse/*")).contains("roundhouse/" + task);
    assertThat(w.op("task_workspace", "task", task).path("worktree").path("path").asText()).isEqualTo(folder.toString());
  }

  @Test
  void aReclaimThatKeepsEndsNothingAndARunningTurnBlocksIt() throws Exception {
    long task = w.task("web", "Unlanded");
    w.turn(task, "work.txt=w\ncommit: work");
    Path folder = folder(task);
    Process sleeper = sleepers.start(task, folder);

    JsonNode unlanded = w.op("task_reclaim", "task", task).path("result");
    assertThat(unlanded.path("outcome").asText()).isEqualTo("KEPT");
    assertThat(unlanded.path("reason").asText()).contains("has work that has not landed");

    w.op("task_merge", "task", task);
    w.start(task, "ask");
    Waits.until("the turn runs", Duration.ofSeconds(30), () -> w.requests.stream().filter(r -> r.taskId() == task).count() == 2);
    JsonNode running = w.op("task_reclaim", "task", task).path("result");
    assertThat(running.path("outcome").asText()).isEqualTo("KEPT");
    assertThat(running.path("reason").asText()).contains("has a running turn");

    assertThat(sleepers.folderExistedWhenAsked).as("the stopper was never asked").isEmpty();
    assertThat(sleeper.isAlive()).isTrue();
    assertThat(folder).isDirectory();
    w.release.countDown();
    w.ended(task);
  }

  /** A task whose one commit is merged into main (fast-forward): its workspace may go. */
  private long landedTask(String title) {
    long task = w.task("web", title);
    w.turn(task, "feature.txt=" + title + "\ncommit: " + title);
    assertThat(w.op("task_merge", "task", task).path("result").path("outcome").asText()).isEqualTo("FAST_FORWARD");
    return task;
  }

  private Path folder(long task) {
    return Path.of(w.op("task_workspace", "task", task).path("worktree").path("path").asText());
  }

  /**
   * A module that runs a real {@code sleep} in a task's worktree and ends it when the hub asks, or refuses to. Thread-safe.
   */
  private static final class Sleepers implements HubExtension {
    final Map<Long, Process> processes = new ConcurrentHashMap<>();
    final List<Boolean> folderExistedWhenAsked = new CopyOnWriteArrayList<>();
    volatile boolean refuse;

    Process start(long task, Path folder) throws IOException {
      Process process = new ProcessBuilder("sleep", "300").directory(folder.toFile()).start();
      processes.put(task, process);
      return process;
    }

    @Override
    public String name() {
      return "sleepers";
    }

    @Override
    public void start(ExtensionContext context) {
      context.stopTaskProcessesWith((actor, task, folder) -> {
        folderExistedWhenAsked.add(Files.isDirectory(folder));
        Process process = processes.get(task);
        if (process == null) {
          return List.of();
        }
        if (refuse) {
          throw new RoundhouseException.Conflict("sleep " + process.pid() + " would not end");
        }
        process.destroy();
        try {
          if (!process.waitFor(10, TimeUnit.SECONDS)) {
            throw new RoundhouseException.Conflict("sleep " + process.pid() + " outlived its SIGTERM");
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new RoundhouseException.Conflict("interrupted ending sleep " + process.pid());
        }
        return new ArrayList<>(List.of("ended sleep " + process.pid() + " in " + folder));
      });
    }
  }
}
