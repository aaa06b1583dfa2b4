package dev.roundhouse.workspace.hub;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.spi.HubExtension;
import dev.roundhouse.hub.spi.TurnEvent;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.TestDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A real hub with the workspace extension, over real repositories in a temporary folder: a bare
 * {@code origin.git}, a clone {@code web} (the project, branch main, one commit pushed) and a bare
 * {@code forge.git} for the local forge. Its driver ({@code agent}) is an agent that edits files in the folder
 * the hub placed it in: each line of its message is {@code path=content} (write), {@code -path} (delete),
 * {@code commit: message} (stage everything and commit) or {@code ask} (wait for the test to release it).
 * Every git process runs without global or system config.
 *
 * <p>Not thread-safe for setup; one per test. Closing it closes the extension (its event stream), the hub,
 * checks no git child outlived the test, and deletes the folders.
 */
final class WorkspaceHub implements AutoCloseable {
  static final Map<String, String> ISOLATED = Map.of("GIT_CONFIG_GLOBAL", "/dev/null", "GIT_CONFIG_NOSYSTEM", "1");
  private static final Map<String, String> IDENTITY = Map.of("GIT_AUTHOR_NAME", "Agent", "GIT_AUTHOR_EMAIL",
      "agent@example.invalid", "GIT_COMMITTER_NAME", "Agent", "GIT_COMMITTER_EMAIL", "agent@example.invalid");

  final Path root;
  final Path remote;
  final Path project;
  final Path forge;
  final Path worktrees;
  final List<TurnRequest> requests = new CopyOnWriteArrayList<>();
  final WorkspaceExtension extension;
  final TestHub hub;
  final EventRecorder events;
  final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);

  WorkspaceHub() {
    this(settings -> settings);
  }

  WorkspaceHub(java.util.function.UnaryOperator<WorkspaceSettings> configure) {
    this(configure, List.of());
  }

  /** With {@code others} registered after the workspace extension (a module that ends a task's processes). */
  WorkspaceHub(java.util.function.UnaryOperator<WorkspaceSettings> configure, List<? extends HubExtension> others) {
    this(configure, others, config -> config);
  }

  /** With the hub configured by {@code hubConfig} too (a clock the test moves). */
  WorkspaceHub(java.util.function.UnaryOperator<WorkspaceSettings> configure, List<? extends HubExtension> others,
      java.util.function.UnaryOperator<dev.roundhouse.hub.HubConfig> hubConfig) {
    try {
      root = Files.createTempDirectory("roundhouse-workspace-hub-").toRealPath();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    remote = root.resolve("origin.git");
    project = root.resolve("web");
    forge = root.resolve("forge.git");
    worktrees = root.resolve("worktrees");
    git(root, "init", "-q", "--bare", "-b", "main", remote.toString());
    git(root, "init", "-q", "--bare", "-b", "main", forge.toString());
    git(root, "clone", "-q", remote.toString(), project.toString());
    git(project, "config", "user.name", "Project Owner");
    git(project, "config", "user.email", "owner@example.invalid");
    git(project, "symbolic-ref", "HEAD", "refs/heads/main");
    write(project, "README.md", "hello\n", "src/app.txt", "one\ntwo\nthree\n");
    git(project, "add", "-A");
    git(project, "commit", "-q", "-m", "initial");
    git(project, "push", "-q", "-u", "origin", "main");
    git(project, "remote", "add", "forge", forge.toString());
    git(project, "push", "-q", "forge", "main");
    WorkspaceSettings settings = configure.apply(new WorkspaceSettings(worktrees, "roundhouse/", 0, "local:" + forge, "gh",
        Duration.ofSeconds(60), WorkspaceSettings.REWRITE_CHECK_DEFAULT, "git", ISOLATED));
    extension = new WorkspaceExtension(settings);
    TestDriver driver = new TestDriver("agent", false, (request, context) -> {
      requests.add(request);
      for (String line : request.message().lines().toList()) {
        act(request.workingDirectory(), line);
      }
      context.emit(new TurnEvent.Result("stop", "done"));
    });
    List<HubExtension> extensions = new ArrayList<>(List.of(extension));
    extensions.addAll(others);
    hub = TestHub.withExtensions(hubConfig, List.of(driver), extensions);
    events = new EventRecorder(hub.hub());
  }

  private void act(Path folder, String line) throws Exception {
    if (line.equals("ask")) {
      release.await(30, TimeUnit.SECONDS);
    } else if (line.startsWith("commit: ")) {
      git(folder, "add", "-A");
      git(folder, "commit", "-q", "-m", line.substring("commit: ".length()));
    } else if (line.startsWith("-")) {
      Files.delete(folder.resolve(line.substring(1)));
    } else if (line.contains("=")) {
      int at = line.indexOf('=');
      write(folder, line.substring(0, at), line.substring(at + 1).replace("\\n", "\n"));
    }
  }

  /** Runs an operation in process as {@code actor}. */
  JsonNode op(Actor actor, String name, Object... keysAndValues) {
    return hub.hub().operations().invoke(name, actor, Json.tree(HttpTestClient.map(keysAndValues)));
  }

  JsonNode op(String name, Object... keysAndValues) {
    return op(Actor.USER, name, keysAndValues);
  }

  /** Adds a project (the agent {@code agent} by default). */
  void addProject(String name, Path path) {
    op("project_create", "name", name, "path", path.toString(), "default_agent", "agent");
  }

  long task(String project, String title) {
    return op("task_create", "project", project, "title", title).get("id").asLong();
  }

  /** Starts a turn and waits for it to end; returns its end event's data. */
  JsonNode turn(long task, String message) {
    start(task, message);
    return ended(task);
  }

  void start(long task, String message) {
    op("turn_start", "task", task, "message", message);
  }

  /** Waits for the task's newest turn to end; returns that turn (its {@code status} and {@code end_reason}). */
  JsonNode ended(long task) {
    Waits.until("task " + task + "'s turn ended", Duration.ofSeconds(60),
        () -> op("turn_list", "task", task).path("turns").path(0).path("status").asText("running").matches("completed|failed|stopped|interrupted|declined"));
    return op("turn_list", "task", task).path("turns").path(0);
  }

  /** Waits until every type in {@code types} was seen on the event stream. */
  void saw(String... types) {
    for (String type : types) {
      events.find(type, Duration.ofSeconds(10), e -> e.type().equals(type));
    }
  }

  TurnRequest request(long task) {
    return requests.stream().filter(r -> r.taskId() == task).reduce((a, b) -> b).orElseThrow();
  }

  /** Runs git and insists on success; stdout without its trailing newline. */
  String git(Path directory, String... args) {
    List<String> command = new ArrayList<>(List.of("git"));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
    Map<String, String> env = new HashMap<>(ISOLATED);
    env.putAll(IDENTITY);
    builder.environment().putAll(env);
    try {
      Process process = builder.start();
      process.getOutputStream().close();
      String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(process.exitValue()).as("git %s in %s: %s", String.join(" ", args), directory, out).isZero();
      return out.stripTrailing();
    } catch (IOException e) {
      throw new AssertionError(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  static void write(Path directory, String... pathsAndContents) {
    for (int i = 0; i < pathsAndContents.length; i += 2) {
      Path file = directory.resolve(pathsAndContents[i]);
      try {
        Files.createDirectories(file.getParent());
        Files.writeString(file, pathsAndContents[i + 1], StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new AssertionError(e);
      }
    }
  }

  @Override
  public void close() {
    release.countDown();
    events.close();
    extension.close();
    hub.close();
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    for (ProcessHandle child : ProcessHandle.current().descendants().toList()) {
      try {
        child.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        throw new AssertionError("child process " + child.pid() + " outlived its test", e);
      }
    }
    try (var paths = Files.walk(root)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // best effort
    }
  }
}
