package dev.roundhouse.hub.http;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.HttpTestClient.Reply;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.core.Json;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One rule for every paged operation's {@code limit}: a whole number of at least 1, or absent for the default. */
class PagedLimitTest {
  private TestHub hub;
  private HttpTestClient http;
  private long task;

  @BeforeEach
  void start() {
    hub = TestHub.start();
    http = hub.http();
    http.op("project_create", map("name", "web", "path", hub.folder("web")));
    task = http.op("task_create", map("project", "web", "title", "Paged")).path("id").asLong();
  }

  @AfterEach
  void stop() {
    hub.close();
  }

  @ParameterizedTest(name = "{0} limit {1}")
  @CsvSource({
      "turn_list, -1", "turn_list, 0",
      "task_edits, -1", "task_edits, 0",
      "task_transcript, -1", "task_transcript, 0",
      "task_list, -1", "task_list, 0",
      "decision_list, -1", "decision_list, 0",
  })
  void aLimitBelowOneIsRefusedNamingTheField(String operation, int limit) {
    Map<String, Object> input = operation.equals("task_list") || operation.equals("decision_list")
        ? map("limit", limit) : map("task", task, "limit", limit);
    Reply reply = http.post("/api/ops/" + operation, Json.write(input));
    assertThat(reply.status()).as("%s", reply.body()).isEqualTo(400);
    assertThat(reply.errorCode()).isEqualTo("schema_violation");
    assertThat(reply.errorMessage()).contains("limit");
  }

  @Test
  void aLimitOfOneAndNoLimitAreAccepted() {
    assertThat(http.post("/api/ops/task_edits", Json.write(map("task", task, "limit", 1))).status()).isEqualTo(200);
    assertThat(http.post("/api/ops/task_edits", Json.write(map("task", task))).status()).isEqualTo(200);
    assertThat(http.get("/api/tasks?limit=0").status()).isEqualTo(400);
  }

  @Test
  void everyOperationsLimitIsPublishedWithMinimumOne() {
    int paged = 0;
    for (OperationDescriptor operation : hub.hub().operations().list()) {
      JsonNode limit = operation.inputSchema().path("properties").path("limit");
      if (!limit.isMissingNode()) {
        paged++;
        assertThat(limit.path("minimum").asInt()).as(operation.name()).isEqualTo(1);
      }
    }
    assertThat(paged).isGreaterThanOrEqualTo(5);
  }
}
