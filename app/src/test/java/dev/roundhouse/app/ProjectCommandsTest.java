package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static dev.roundhouse.app.CliTestSupport.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.testing.TestHub;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ProjectCommandsTest {
  private TestHub hub;

  @BeforeEach
  void startHub() {
    hub = TestHub.start();
  }

  @AfterEach
  void stopHub() {
    hub.close();
  }

  @Test
  void projectAddWithoutPathUsesTheWorkingDirectory() {
    Path web = Path.of(hub.folder("web"));
    CliResult added = ok(context(hub.home(), web), "project", "add", "web", "--agent", "claude");

    assertThat(added.out()).isEqualTo("created project 1 web at " + web + "\n");
    JsonNode projects = ok(context(hub), "project", "list", "--json").json().path("projects");
    assertThat(projects).hasSize(1);
    assertThat(projects.get(0).path("path").asText()).isEqualTo(web.toString());
    assertThat(projects.get(0).path("default_agent").asText()).isEqualTo("claude");
  }

  @Test
  void projectAddMakesARelativePathAbsoluteAgainstTheWorkingDirectory() {
    Path repos = Path.of(hub.folder("api")).getParent();
    JsonNode project = ok(context(hub.home(), repos), "project", "add", "api", "api/../api", "--json").json();

    assertThat(project.path("path").asText()).isEqualTo(repos.resolve("api").toString());
  }

  @Test
  void projectListPrintsAlignedColumns() {
    ok(context(hub), "project", "add", "web", hub.folder("web"), "--agent", "claude");
    ok(context(hub), "project", "add", "infrastructure", hub.folder("infra"));

    CliResult list = ok(context(hub), "project", "list");

    assertThat(list.out().lines().toList())
        .containsExactly(
            "ID  NAME            AGENT   PATH",
            "2   infrastructure  -       " + hub.folder("infra"),
            "1   web             claude  " + hub.folder("web"));
  }

  @Test
  void projectListOnAnEmptyBoardSaysHowToAddOne() {
    assertThat(ok(context(hub), "project", "list").out()).contains("no projects; add one with: roundhouse project add");
  }

  @Test
  void projectShowPrintsFieldsAndTaskCountsPerColumn() {
    ok(context(hub), "project", "add", "web", hub.folder("web"), "--context", "Use pnpm.");
    ok(context(hub), "task", "add", "--project", "web", "One");
    ok(context(hub), "task", "add", "--project", "web", "Two", "--status", "todo");
    ok(context(hub), "task", "add", "--project", "web", "Three", "--status", "todo");

    CliResult shown = ok(context(hub), "project", "show", "web");

    assertThat(shown.out())
        .startsWith("project 1  web\n")
        .contains("path     " + hub.folder("web") + "\n")
        .contains("context:\n  Use pnpm.\n")
        .endsWith("tasks: 1 backlog, 2 todo\n");
    assertThat(ok(context(hub), "project", "show", "1", "--json").json().path("name").asText()).isEqualTo("web");
  }

  @Test
  void projectShowOfAnUnknownProjectExits1NamingIt() {
    CliResult result = CliResult.run(context(hub), "project", "show", "nope");

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.err()).startsWith("roundhouse: no project 'nope'");
    assertThat(result.out()).isEmpty();
  }
}
