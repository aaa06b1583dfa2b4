package dev.roundhouse.services;

import dev.roundhouse.hub.process.ProcessRecord;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Definitions, command lines and dependency order: no processes. */
class DefinitionsTest {
  private final JsonMapper json = JsonMapper.builder().addModule(new JavaTimeModule()).build();

  @Test
  void plainCommandLinesRunWithoutAShellAndExpandVariables() {
    ServiceDefinition http = ServiceDefinition.shell("http", "/srv", "python3 -m http.server ${PORT} $UNSET");

    assertThat(CommandLine.argv(http, Map.of("PORT", "21040"))).containsExactly("python3", "-m", "http.server", "21040");
  }

  @Test
  void shellSyntaxRunsUnderSh() {
    for (String line : List.of("npm run dev | tee log", "cd web && npm start", "echo 'a b'", "FOO=1 run",
        "run > out", "ls *.txt", "echo $(date)")) {
      assertThat(CommandLine.needsShell(line)).as(line).isTrue();
    }
    assertThat(CommandLine.argv(ServiceDefinition.shell("x", "/srv", "a && b"), Map.of()))
        .containsExactly("/bin/sh", "-c", "a && b");
    assertThat(CommandLine.needsShell("java -jar app.jar --port=$PORT")).isFalse();
  }

  @Test
  void badDefinitionsAreRefusedNamingWhatIsWrong() {
    assertThatThrownBy(() -> ServiceDefinition.of("Web App", "/srv", List.of("x")))
        .hasMessage("service name 'Web App' must be 1-64 lower case letters, digits, '-' or '_', starting with a letter or digit");
    assertThatThrownBy(() -> ServiceDefinition.of("web", "srv", List.of("x")))
        .hasMessage("service web needs an absolute working directory, not srv");
    assertThatThrownBy(() -> new ServiceDefinition("web", List.of("x"), "y", "/srv", null, null, null, null, null))
        .hasMessage("service web needs exactly one of argv and shell");
    assertThatThrownBy(() -> Readiness.logLine("(unclosed"))
        .hasMessageStartingWith("readiness pattern (unclosed is not a regular expression");
  }

  @Test
  void dependenciesComeFirstAndCyclesAreNamed() {
    Map<String, ServiceDefinition> definitions = Map.of(
        "web", ServiceDefinition.of("web", "/srv", List.of("x")).withDependsOn(List.of("api", "migrate")),
        "api", ServiceDefinition.of("api", "/srv", List.of("x")).withDependsOn(List.of("migrate")),
        "migrate", ServiceDefinition.of("migrate", "/srv", List.of("x")).withKind(ServiceKind.SETUP));

    assertThat(DependencyOrder.of("web", definitions)).containsExactly("migrate", "api", "web");

    Map<String, ServiceDefinition> cyclic = Map.of(
        "a", ServiceDefinition.of("a", "/srv", List.of("x")).withDependsOn(List.of("b")),
        "b", ServiceDefinition.of("b", "/srv", List.of("x")).withDependsOn(List.of("a")));
    assertThatThrownBy(() -> DependencyOrder.of("a", cyclic))
        .hasMessage("services depend on each other in a cycle: a -> b -> a");
    assertThatThrownBy(() -> DependencyOrder.of("web", Map.of("web", definitions.get("web"))))
        .hasMessage("service web depends on api, which is not defined");
  }

  @Test
  void recordsRoundTripThroughJackson() throws Exception {
    ServiceDefinition definition = ServiceDefinition.shell("http", "/srv", "python3 -m http.server $PORT")
        .withKind(ServiceKind.DEV).withRestart(RestartPolicy.onFailure())
        .withReadiness(Readiness.projectPort()).withEnv(Map.of("A", "1")).withDependsOn(List.of("migrate"));
    ServiceState state = new ServiceState("http", ServiceKind.DEV, ServiceStatus.BACKOFF, null, 3, 2, 21_040,
        "exited with code 3; restarting in 2 s", Instant.parse("2026-01-01T00:00:00Z"), 12, 7);
    ProcessRecord record = new ProcessRecord("service:http", 10, 10, 99, "boot", List.of("python3"), "run",
        Instant.parse("2026-01-01T00:00:00Z"));

    String text = json.writeValueAsString(definition);

    assertThat(text).contains("\"kind\":\"dev\"", "\"mode\":\"on_failure\"", "\"check\":\"port\"");
    assertThat(json.readValue(text, ServiceDefinition.class)).isEqualTo(definition);
    assertThat(json.readValue(json.writeValueAsString(state), ServiceState.class)).isEqualTo(state);
    assertThat(json.readValue(json.writeValueAsString(record), ProcessRecord.class)).isEqualTo(record);
    assertThat(json.readValue("{\"name\":\"db\",\"argv\":[\"pg\"],\"cwd\":\"/srv\"}", ServiceDefinition.class))
        .isEqualTo(ServiceDefinition.of("db", "/srv", List.of("pg")));
  }
}
