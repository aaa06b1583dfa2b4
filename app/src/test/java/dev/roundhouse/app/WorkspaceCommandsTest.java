package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static dev.roundhouse.app.CliTestSupport.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.workspace.hub.WorkspaceExtension;
import dev.roundhouse.workspace.hub.WorkspaceSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code roundhouse task diff|merge|sync|pr|review|reclaim} against a hub with the workspace, over a real repository. */
class WorkspaceCommandsTest {
  private static final Map<String, String> GIT_ENV = Map.of("GIT_CONFIG_GLOBAL", "/dev/null", "GIT_CONFIG_NOSYSTEM", "1",
      "GIT_AUTHOR_NAME", "A", "GIT_AUTHOR_EMAIL", "a@example.invalid", "GIT_COMMITTER_NAME", "A", "GIT_COMMITTER_EMAIL", "a@example.invalid");

  @TempDir Path root;
  private WorkspaceExtension extension;
  private TestHub hub;
  private Context cli;
  private Path repository;

  @BeforeEach
  void start() throws Exception {
    repository = root.toRealPath().resolve("web");
    git(root, "init", "-q", "-b", "main", repository.toString());
    Files.writeString(repository.resolve("README.md"), "hello\n");
    git(repository, "add", "-A");
    git(repository, "commit", "-q", "-m", "initial");
    extension = new WorkspaceExtension(WorkspaceSettings.defaults(root.toRealPath()).withGit("git",
        Map.of("GIT_CONFIG_GLOBAL", "/dev/null", "GIT_CONFIG_NOSYSTEM", "1")));
    hub = TestHub.withExtensions(config -> config, List.of(), List.of(extension));
    cli = context(hub);
    ok(cli, "project", "add", "web", repository.toString());
    ok(cli, "task", "add", "--project", "web", "Add", "notes");
  }

  @AfterEach
  void stop() {
    extension.close();
    hub.close();
  }

  @Test
  void taskWorkspaceMakesTheWorktreeOnceAndSaysWhereItIs() {
    assertThat(ok(cli, "task", "workspace", "1", "--no-create").out()).startsWith("task 1 has no workspace");

    String made = ok(cli, "task", "workspace", "1").out();
    assertThat(made).startsWith("task 1 (created) on roundhouse/1-add-notes from main").contains("state      clean, 0 ahead, 0 behind");
    String path = made.lines().filter(line -> line.startsWith("worktree ")).findFirst().orElseThrow().substring("worktree".length()).strip();
    assertThat(Path.of(path)).isDirectory();
    assertThat(ok(cli, "task", "workspace", "1").out()).startsWith("task 1 (reused)");
    assertThat(ok(cli, "task", "workspace", "1", "--json").json().path("worktree").path("path").asText()).isEqualTo(path);
  }

  @Test
  void aTasksWorkIsDiffedReviewedMergedAndReclaimedFromTheCommandLine() throws Exception {
    Path worktree = Path.of(hub.hub().operations().invoke("task_workspace", Actor.USER,
        Json.tree(HttpTestClient.map("task", 1, "ensure", true))).path("worktree").path("path").asText());
    Files.writeString(worktree.resolve("notes.txt"), "one\ntwo\n");
    git(worktree, "add", "-A");
    git(worktree, "commit", "-q", "-m", "notes");
    Files.writeString(worktree.resolve("README.md"), "hello\nworld\n");

    assertThat(ok(cli, "task", "diff", "1").out())
        .contains("task 1 on roundhouse/1-add-notes against main")
        .containsPattern("added +\\+2 -0 +notes.txt")
        .containsPattern("modified +\\+1 -0 +README.md \\(uncommitted\\)");
    assertThat(ok(cli, "task", "diff", "1", "--json").json().path("diff").path("files")).hasSize(2);
    assertThat(ok(cli, "task", "diff", "1", "--patch").out()).contains("--- notes.txt", "+one");

    assertThat(ok(cli, "task", "review", "1", "--request-changes", "-m", "Explain", "--comment", "notes.txt:1:why one?").out())
        .isEqualTo("requested changes on task 1\n");
    assertThat(ok(cli, "task", "review", "1").out()).contains("changes requested", "notes.txt:1 why one?");
    assertThat(ok(cli, "task", "review", "1", "--json").json().path("reviews")).hasSize(1);

    CliResult refused = CliResult.run(cli, "task", "merge", "1");
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.out()).contains("refused").contains("README.md");
    git(worktree, "commit", "-q", "-am", "world");
    assertThat(ok(cli, "task", "merge", "1").out()).startsWith("fast forward");
    assertThat(repository.resolve("notes.txt")).exists();
    assertThat(ok(cli, "task", "sync", "1", "--json").json().path("result").path("outcome").asText()).isEqualTo("UP_TO_DATE");

    CliResult noForge = CliResult.run(cli, "task", "pr", "1");
    assertThat(noForge.exit()).isEqualTo(1);
    assertThat(noForge.err()).contains("ROUNDHOUSE_FORGE=gh");

    assertThat(ok(cli, "task", "reclaim", "1").out()).startsWith("reclaimed");
    assertThat(worktree).doesNotExist();
  }

  private static void git(Path directory, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("git"));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true);
    builder.environment().putAll(GIT_ENV);
    Process process = builder.start();
    process.getOutputStream().close();
    String out = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as("git %s: %s", String.join(" ", args), out).isZero();
  }
}
