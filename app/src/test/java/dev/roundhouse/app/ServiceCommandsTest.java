package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static dev.roundhouse.app.CliTestSupport.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.services.hub.ServicesExtension;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@code roundhouse service …} against a real hub with the services extension and a real process. */
class ServiceCommandsTest {
  private TestHub hub;
  private Context cli;

  @BeforeEach
  void startHubWithAService() {
    hub = TestHub.withExtensions(config -> config, List.of(), List.of(new ServicesExtension(
        CliTestSupport.servicesSettings())));
    cli = context(hub);
    ok(cli, "project", "add", "web", hub.folder("web"));
    hub.http().op("service_define", Map.of("project", "web", "name", "hello",
        "command", "sh -c 'echo hello on $PORT; echo oops >&2; sleep 60'", "readiness", Map.of("check", "log", "pattern", "hello")));
  }

  @AfterEach
  void stopHub() {
    hub.close();
  }

  @Test
  void startListLogsAndStopAService() {
    assertThat(ok(cli, "service", "start", "--project", "web", "hello").out()).startsWith("hello: ready (pid ");

    String port = hub.http().op("service_list", Map.of("project", "web")).path("port").asText();
    List<String> table = ok(cli, "service", "list", "-p", "web").out().lines().toList();
    assertThat(table.get(0)).isEqualTo("project web: PORT=" + port);
    assertThat(table.get(2)).startsWith("hello  dev   ready");
    assertThat(ok(cli, "service", "logs", "-p", "web", "hello").out()).contains("hello on " + port + "\n").contains("! oops\n");
    JsonNode json = Json.read(ok(cli, "service", "list", "-p", "web", "--json").out(), JsonNode.class);
    assertThat(json.path("services").get(0).path("state").path("status").asText()).isEqualTo("ready");

    assertThat(ok(cli, "service", "stop", "-p", "web", "hello").out()).startsWith("hello: stopped");
  }
}
