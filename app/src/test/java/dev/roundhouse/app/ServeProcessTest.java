package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** The command as real processes: a serving hub, clients beside it, signals. */
@ExtendWith(NoLeakedProcesses.class)
class ServeProcessTest {
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration RUN = Duration.ofSeconds(60);
  private static final Pattern LISTENING = Pattern.compile("^roundhouse \\S+ listening on (http://\\S+) \\(home (.+)\\)$");

  @TempDir Path home;

  @Test
  void clientProcessesWorkAgainstAServingProcessWhichStopsCleanlyOnSigterm() throws IOException {
    Path repo = Files.createDirectories(home.resolve("repos/web"));
    try (RoundhouseProcess hub = RoundhouseProcess.start(home, "serve", "--port", "0")) {
      Matcher listening = awaitListening(hub);
      assertThat(listening.group(2)).isEqualTo(home.toString());

      CliResult project = RoundhouseProcess.run(home, RUN, "project", "add", "web", repo.toString(), "--json");
      assertThat(project.exit()).as("%s", project).isZero();
      assertThat(project.json().path("name").asText()).isEqualTo("web");
      CliResult task = RoundhouseProcess.run(home, RUN, "task", "add", "--project", "web", "Fix", "the", "build");
      assertThat(task.exit()).as("%s", task).isZero();
      assertThat(task.out()).isEqualTo("created task 1 [backlog] Fix the build\n");

      CliResult list = RoundhouseProcess.run(home, RUN, "task", "list", "--json");
      assertThat(list.exit()).as("%s", list).isZero();
      JsonNode tasks = list.json().path("tasks");
      assertThat(tasks).hasSize(1);
      assertThat(tasks.get(0).path("title").asText()).isEqualTo("Fix the build");

      CliResult unknown = RoundhouseProcess.run(home, RUN, "task", "show", "99");
      assertThat(unknown.exit()).isEqualTo(1);
      assertThat(unknown.err()).contains("roundhouse: no task 99");
      assertThat(unknown.out()).isEmpty();

      hub.terminate();
      assertThat(hub.awaitExit(RUN)).as("exit status after SIGTERM; stderr:\n%s", hub.err()).isZero();
      assertThat(hub.err()).contains("stopping on SIGTERM", "ServeCommand - stopped");
    }
    CliResult after = RoundhouseProcess.run(home, RUN, "task", "list");
    assertThat(after.exit()).isEqualTo(3);
    assertThat(after.err()).contains("roundhouse: no hub is running for " + home + "; start one with ./roundhouse serve");
  }

  @Test
  void aSecondServeOnTheSameHomeExits4NamingTheFirstPid() {
    try (RoundhouseProcess first = RoundhouseProcess.start(home, "serve", "--port", "0")) {
      awaitListening(first);

      CliResult second = RoundhouseProcess.run(home, RUN, "serve", "--port", "0");

      assertThat(second.exit()).as("%s", second).isEqualTo(4);
      assertThat(second.err()).contains("another Roundhouse hub is using " + home, "pid " + first.pid());
      assertThat(second.err()).doesNotContain("listening on");
    }
  }

  @Test
  void aSigkilledHubDoesNotBlockTheNextServe() throws Exception {
    try (RoundhouseProcess killed = RoundhouseProcess.start(home, "serve", "--port", "0")) {
      awaitListening(killed);
      killed.kill();
      assertThat(killed.awaitExit(RUN)).isEqualTo(137);
    }
    try (RoundhouseProcess next = RoundhouseProcess.start(home, "serve", "--port", "0")) {
      String url = awaitListening(next).group(1);

      try (HttpClient http = HttpClient.newHttpClient()) {
        HttpResponse<String> health =
            http.send(HttpRequest.newBuilder(URI.create(url + "/api/health")).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).contains("\"status\":\"ok\"");
      }
      next.terminate();
      assertThat(next.awaitExit(RUN)).isZero();
    }
  }

  private static Matcher awaitListening(RoundhouseProcess process) {
    String line = process.awaitErrLine(l -> LISTENING.matcher(l).matches(), START);
    Matcher matcher = LISTENING.matcher(line);
    assertThat(matcher.matches()).isTrue();
    return matcher;
  }
}
