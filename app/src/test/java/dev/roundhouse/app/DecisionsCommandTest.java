package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static dev.roundhouse.app.CliTestSupport.ok;
import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.drivers.script.ScriptDriver;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code roundhouse decisions list|answer}: a script-driver turn parks a question; the CLI lists and answers it. */
class DecisionsCommandTest {
  private static final String ASKS = "{\"steps\": [{\"ask_user\": \"Which database?\", \"options\": [\"postgres\", \"sqlite\"]},"
      + " {\"message\": \"Using {{answer}}.\"}]}";

  private TestHub hub;
  private Context cli;

  @BeforeEach
  void startHub() {
    hub = TestHub.withDrivers(c -> c, List.of(new ScriptDriver()));
    cli = context(hub);
    ok(cli, "project", "add", "web", hub.folder("web"), "--agent", ScriptDriver.ID);
    ok(cli, "task", "add", "--project", "web", "Pick", "a", "database");
  }

  @AfterEach
  void stopHub() {
    hub.close();
  }

  @Test
  void aQuestionIsListedAndAnsweredFromTheCommandLine() {
    assertThat(ok(cli, "decisions", "list").out()).isEqualTo("nothing needs you\n");
    hub.http().op("turn_start", map("task", 1, "message", ASKS));
    Waits.until("the question to be pending", Duration.ofSeconds(30),
        () -> hub.http().op("decision_list", map()).get("pending").asInt() == 1);

    String listed = ok(cli, "decisions", "list", "--project", "web").out();
    assertThat(listed).containsPattern("(?m)^ID +KIND +TASK +STATUS +TITLE +OPTIONS$").contains("question").contains("postgres | sqlite")
        .contains("answer one with: roundhouse decisions answer ID ANSWER");
    long id = ok(cli, "decisions", "list", "--json").json().path("decisions").get(0).path("id").asLong();

    assertThat(ok(cli, "decisions", "answer", Long.toString(id), "sqlite").out()).startsWith("decision " + id + " answered: sqlite");
    Waits.until("the turn to use the answer", Duration.ofSeconds(30),
        () -> hub.http().op("task_transcript", map("task", 1)).toString().contains("Using sqlite."));
    assertThat(ok(cli, "decisions", "list").out()).isEqualTo("nothing needs you\n");
    assertThat(ok(cli, "decisions", "list", "--all").out()).contains("answered: sqlite");

    CliResult again = CliResult.run(cli, "decisions", "answer", Long.toString(id), "postgres");
    assertThat(again.exit()).isEqualTo(1);
    assertThat(again.err()).contains("already answered");
  }
}
