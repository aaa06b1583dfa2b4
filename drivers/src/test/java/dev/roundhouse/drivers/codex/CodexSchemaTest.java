package dev.roundhouse.drivers.codex;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.process.AgentProcess;
import dev.roundhouse.drivers.process.ChildEnvironment;
import dev.roundhouse.drivers.process.ChildProcesses;
import dev.roundhouse.hub.core.Json;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The protocol as the pinned Codex generates it still matches what the driver handles. */
class CodexSchemaTest {
  @TempDir Path root;

  @Test
  void everyRequestTheServerCanSendIsAnswered() throws Exception {
    Path out = root.resolve("schema");
    try (FakeResponsesServer server = FakeResponsesServer.start()) {
      CodexHome world = new CodexHome(root.resolve("world"), server);
      AgentProcess process = AgentProcess.start("codex",
          world.command().commandLine(List.of("app-server", "generate-json-schema", "--out", out.toString())),
          root, ChildEnvironment.fromHub().putAll(world.command().env()).toMap());
      assertThat(process.awaitExit(Duration.ofSeconds(60))).hasValue(0);
    }
    List<String> methods = new ArrayList<>();
    for (JsonNode variant : Json.mapper().readTree(out.resolve("ServerRequest.json").toFile()).path("oneOf")) {
      variant.at("/properties/method/enum").forEach(method -> methods.add(method.asText()));
    }

    assertThat(methods).contains("item/commandExecution/requestApproval", "item/fileChange/requestApproval");
    assertThat(methods).allMatch(method -> Approvals.HANDLED.contains(method) || Approvals.NOT_SUPPORTED.contains(method));
    assertThat(CodexProbe.approvalPolicies(out)).containsExactly("untrusted", "on-request", "never");
    ChildProcesses.assertNoneLeft(Duration.ofSeconds(10));
  }
}
