package dev.roundhouse.hub.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.hub.testing.ManualClock;
import dev.roundhouse.hub.testing.TestHub;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** retention_prune and retention_status through a real hub's operation registry, and the setting. */
class RetentionOperationsTest {

  @Test
  void pruneIsDestructiveAndStatusReadOnly() {
    try (TestHub test = TestHub.start()) {
      OperationDescriptor prune = test.hub().operations().describe("retention_prune").orElseThrow();
      OperationDescriptor status = test.hub().operations().describe("retention_status").orElseThrow();
      assertThat(prune.annotations().destructive()).isTrue();
      assertThat(status.annotations().readOnly()).isTrue();
    }
  }

  @Test
  void dryRunThenPruneThroughTheOperations() {
    ManualClock clock = new ManualClock(Instant.parse("2026-05-04T08:00:00Z"));
    try (TestHub test = TestHub.start(config -> config.withClock(clock))) {
      OperationRegistry ops = test.hub().operations();
      ops.invoke("project_create", Actor.USER, json(Map.of("name", "web", "path", test.folder("web"))));
      long done = ops.invoke("task_create", Actor.USER, json(Map.of("project", "web", "title", "ship it", "status", "done")))
          .path("id").asLong();
      long open = ops.invoke("task_create", Actor.USER, json(Map.of("project", "web", "title", "still open")))
          .path("id").asLong();
      clock.advance(Duration.ofDays(45));

      JsonNode status = ops.invoke("retention_status", Actor.USER, json(Map.of()));
      assertThat(status.path("policy").path("days").asInt()).isEqualTo(30);
      assertThat(status.path("policy").path("auto_vacuum").asText()).isEqualTo(TestHub.onPostgres() ? "autovacuum" : "incremental");
      assertThat(status.path("eligible").path("tasks")).hasSize(1);
      assertThat(status.has("last_run")).isFalse();

      JsonNode dry = ops.invoke("retention_prune", Actor.USER, json(Map.of("dry_run", true)));
      assertThat(dry.path("dry_run").asBoolean()).isTrue();
      assertThat(dry.path("tasks").get(0).path("task").asLong()).isEqualTo(done);
      assertThat(dry.path("tasks").get(0).path("title").asText()).isEqualTo("ship it");
      assertThat(dry.has("compaction")).isFalse();

      JsonNode pruned = ops.invoke("retention_prune", Actor.USER, json(Map.of()));
      assertThat(pruned.path("tasks").get(0).path("task").asLong()).isEqualTo(done);
      assertThat(pruned.path("events").asLong()).isEqualTo(1); // its task.created
      assertThat(pruned.path("compaction").path("full_vacuum").asBoolean()).isFalse();

      JsonNode transcript = ops.invoke("task_transcript", Actor.USER, json(Map.of("task", done)));
      assertThat(transcript.path("entries")).hasSize(1);
      assertThat(transcript.path("entries").get(0).path("type").asText()).isEqualTo("task.pruned");
      assertThat(ops.invoke("task_get", Actor.USER, json(Map.of("task", done))).path("title").asText()).isEqualTo("ship it");
      assertThat(pruned.path("tasks")).hasSize(1); // the open task (todo) is not touched
      assertThat(ops.invoke("task_get", Actor.USER, json(Map.of("task", open))).path("status").asText()).isEqualTo("backlog");

      JsonNode after = ops.invoke("retention_status", Actor.USER, json(Map.of()));
      assertThat(after.path("last_run").path("actor").asText()).isEqualTo("user");
      assertThat(after.path("eligible").path("tasks")).isEmpty();
    }
  }

  @Test
  void retentionDaysComeFromTheEnvironment() {
    assertThat(HubConfig.fromEnvironment(Map.of()).retention().days()).isEqualTo(30);
    assertThat(HubConfig.fromEnvironment(Map.of("ROUNDHOUSE_RETENTION_DAYS", "14")).retention().days()).isEqualTo(14);
    assertThat(HubConfig.fromEnvironment(Map.of("ROUNDHOUSE_RETENTION_DAYS", "90d")).retention().days()).isEqualTo(90);
    assertThat(HubConfig.fromEnvironment(Map.of("ROUNDHOUSE_RETENTION_DAYS", "off")).retention().automatic()).isFalse();
    assertThat(HubConfig.fromEnvironment(Map.of("ROUNDHOUSE_RETENTION_DAYS", "0")).retention().automatic()).isFalse();
    assertThatThrownBy(() -> HubConfig.fromEnvironment(Map.of("ROUNDHOUSE_RETENTION_DAYS", "-1")))
        .isInstanceOf(RoundhouseException.InvalidInput.class).hasMessageContaining("ROUNDHOUSE_RETENTION_DAYS='-1'");
    assertThatThrownBy(() -> HubConfig.fromEnvironment(Map.of("ROUNDHOUSE_RETENTION_DAYS", "a month")))
        .isInstanceOf(RoundhouseException.InvalidInput.class).hasMessageContaining("or 'off'");
  }

  private static JsonNode json(Map<String, ?> fields) {
    return Json.mapper().valueToTree(fields);
  }
}
