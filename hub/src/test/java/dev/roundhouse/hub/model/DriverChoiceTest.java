package dev.roundhouse.hub.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.core.RoundhouseException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class DriverChoiceTest {
  private static Task task(String agent) {
    return new Task(4, 1, "t", null, TaskStatus.TODO, Priority.NORMAL, List.of(), List.of(), false, agent, null, null, false, null, Instant.EPOCH, Instant.EPOCH);
  }

  private static Project project(String defaultAgent) {
    return new Project(1, "web", "/src/web", defaultAgent, null, Instant.EPOCH, Instant.EPOCH);
  }

  @Test
  void theRequestThenTheTasksAgentThenTheProjectsDefault() {
    assertThat(DriverChoice.of("codex", task("claude"), project("script"))).contains("codex");
    assertThat(DriverChoice.of(null, task("claude"), project("script"))).contains("claude");
    assertThat(DriverChoice.of(task(null), project("script"))).contains("script");
    assertThat(DriverChoice.of(" ", task(""), project("script"))).as("blank is none").contains("script");
    assertThat(DriverChoice.of(task(null), project(null))).isEmpty();
  }

  @Test
  void noDriverAnywhereIsRefusedNamingTheChoices() {
    assertThatThrownBy(() -> DriverChoice.require(null, task(null), project(null), List.of("claude", "codex")))
        .isInstanceOf(RoundhouseException.InvalidInput.class)
        .hasMessage("task 4 names no driver and project web has no default agent; pass driver (one of claude, codex)");
  }
}
