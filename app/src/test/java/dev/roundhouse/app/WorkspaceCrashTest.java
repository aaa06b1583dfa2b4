package dev.roundhouse.app;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.Waits;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code roundhouse serve} SIGKILLed while {@code git worktree add} is half way through a task's first
 * worktree (git frozen with SIGSTOP after it wrote its {@code locked} "initializing" marker, then killed too, as when
 * a machine or a container dies): the next hub's next turn of the task repairs the worktree and runs in it.
 */
@ExtendWith(NoLeakedProcesses.class)
class WorkspaceCrashTest {
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration RUN = Duration.ofSeconds(90);
  private static final Pattern LISTENING = Pattern.compile("^roundhouse \\S+ listening on (http://\\S+) \\(home (.+)\\)$");

  @TempDir Path home;

  @Test
  void aHubKilledDuringWorktreeCreationHealsOnTheNextTurn() throws Exception {
    Path repo = home.resolve("repos/web");
    BenchGit.init(repo);
    BenchGit.importCommits(repo, 3000, 0, 1, false); // a checkout that takes long enough to be caught half way
    BenchGit.run(repo, "reset", "-q", "--hard");
    Path marker = home.resolve("git-worktree-add.pid");
    Path bin = Files.createDirectories(home.resolve("bin"));
    Path git = bin.resolve("git");
    Files.writeString(git, "#!/bin/sh\n"
        + "if [ \"$1\" = worktree ] && [ \"$2\" = add ]; then echo $$ > '" + marker + "'; fi\n"
        + "exec '" + realGit() + "' \"$@\"\n");
    Files.setPosixFilePermissions(git, PosixFilePermissions.fromString("rwxr-xr-x"));

    long task;
    Path admin;
    try (RoundhouseProcess hub = serve(bin)) {
      HttpTestClient http = client(hub);
      http.op("project_create", map("name", "web", "path", repo.toString(), "default_agent", "script"));
      task = http.op("task_create", map("project", "web", "title", "Crash")).path("id").asLong();
      admin = repo.resolve(".git/worktrees/" + task);
      http.op("turn_start", map("task", task, "message", "hello"));

      Path locked = admin.resolve("locked");
      long deadline = System.nanoTime() + RUN.toNanos();
      while (!Files.exists(marker) || !Files.exists(locked)) {
        assertThat(System.nanoTime()).as("git worktree add started and locked its worktree").isLessThan(deadline);
        Thread.onSpinWait();
      }
      long gitPid = Long.parseLong(Files.readString(marker).strip());
      signal("STOP", gitPid);
      assertThat(locked).as("caught half way: git has not unlocked yet").exists();
      hub.kill();
      assertThat(hub.awaitExit(RUN)).isEqualTo(137);
      signal("KILL", gitPid);
      Waits.until("git " + gitPid + " is gone", RUN, () -> ProcessHandle.of(gitPid).map(p -> !p.isAlive()).orElse(true));
    }
    assertThat(Files.readString(admin.resolve("locked")).strip()).isEqualTo("initializing");
    Path folder = home.resolve("worktrees/web/" + task);
    // Where the kill landed inside git's checkout depends on the machine's speed (on a quiet one the files may all
    // be out already); what is certain is that git never finished: the worktree is still locked "initializing".

    try (RoundhouseProcess hub = serve(bin)) {
      HttpTestClient http = client(hub);
      assertThat(turns(http, task).path(0).path("status").asText()).as("the killed turn").isEqualTo("interrupted");

      http.op("turn_start", map("task", task, "message", "hello again"));
      Waits.until("the next turn ends", RUN, () -> turns(http, task).path(0).path("status").asText().equals("completed"));

      JsonNode workspace = http.op("task_workspace", map("task", task));
      assertThat(workspace.path("worktree").path("path").asText()).isEqualTo(folder.toString());
      assertThat(workspace.path("status").path("clean").asBoolean()).as("%s", workspace).isTrue();
      assertThat(folder.resolve("src/d029/f02999.txt")).exists();
      assertThat(admin.resolve("locked")).as("no longer locked").doesNotExist();
      assertThat(BenchGit.run(repo, "worktree", "list", "--porcelain").stdout()).contains("worktree " + folder)
          .doesNotContain("locked");
      hub.terminate();
      assertThat(hub.awaitExit(RUN)).isZero();
    }
  }

  private RoundhouseProcess serve(Path bin) {
    ProcessBuilder builder = RoundhouseProcess.builder(home, List.of(), "serve", "--port", "0");
    Map<String, String> env = builder.environment();
    env.put("PATH", bin + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
    env.put("GIT_CONFIG_GLOBAL", "/dev/null");
    env.put("GIT_CONFIG_NOSYSTEM", "1");
    return RoundhouseProcess.start(builder);
  }

  private HttpTestClient client(RoundhouseProcess hub) throws IOException {
    String line = hub.awaitErrLine(l -> LISTENING.matcher(l).matches(), START);
    Matcher matcher = LISTENING.matcher(line);
    assertThat(matcher.matches()).isTrue();
    return new HttpTestClient(matcher.group(1), Files.readString(home.resolve("token"), StandardCharsets.UTF_8).strip());
  }

  private static JsonNode turns(HttpTestClient http, long task) {
    return http.op("turn_list", map("task", task)).path("turns");
  }

  private static void signal(String signal, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-s", signal, Long.toString(pid)).inheritIO().start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
  }

  private static String realGit() throws Exception {
    Process which = new ProcessBuilder("sh", "-c", "command -v git").start();
    String path = new String(which.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(which.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(path).as("git on PATH").startsWith("/");
    return path;
  }
}
