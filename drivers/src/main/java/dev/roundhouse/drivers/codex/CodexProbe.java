package dev.roundhouse.drivers.codex;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.drivers.process.AgentProcess;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

/**
 * Asks the installed Codex about itself, without a model call: {@code codex --version}; an app-server
 * session for {@code account/read}, {@code config/read} and {@code model/list}; and {@code codex app-server
 * generate-json-schema} for the approval policies its protocol accepts. Takes about a second. Stateless.
 */
final class CodexProbe {
  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private CodexProbe() {}

  static CodexFacts probe(CodexSettings settings, Map<String, String> environment) {
    Path scratch = null;
    try {
      scratch = Files.createTempDirectory("roundhouse-codex-probe-");
      String version = version(settings, environment, scratch);
      if (version == null) {
        return CodexFacts.unavailable("codex did not report a version (" + settings.command() + ")");
      }
      List<String> policies = approvalPolicies(settings, environment, scratch);
      try (AppServer server = AppServer.start(settings.command().commandLine(List.of("app-server")), scratch, environment)) {
        server.call("initialize", Json.mapper().createObjectNode().set("clientInfo",
            Json.mapper().createObjectNode().put("name", "roundhouse").put("version", CodexDriver.CLIENT_VERSION)), TIMEOUT);
        server.notify("initialized");
        var account = server.request("account/read", Json.mapper().createObjectNode());
        var config = server.request("config/read", Json.mapper().createObjectNode());
        var models = server.request("model/list", Json.mapper().createObjectNode());
        JsonNode configRead = server.await("config/read", config, TIMEOUT);
        JsonNode accountRead = server.await("account/read", account, TIMEOUT);
        String provider = configRead.path("config").path("model_provider").asText("openai");
        String keyVariable = configRead.path("config").path("model_providers").path(provider).path("env_key").asText(null);
        List<String> modelIds = modelIds(configRead, server.await("model/list", models, TIMEOUT));
        return new CodexFacts(version, modelIds, policies, ModelEndpoint.describe(configRead), provider, keyVariable,
            accountRead.path("account"), accountRead.path("requiresOpenaiAuth").asBoolean(true), null);
      }
    } catch (RoundhouseException e) {
      return CodexFacts.unavailable(e.getMessage());
    } catch (IOException e) {
      return CodexFacts.unavailable("could not ask codex about itself: " + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return CodexFacts.unavailable("interrupted while asking codex about itself");
    } finally {
      delete(scratch);
    }
  }

  /** The configured model first, then what {@code model/list} offers (hidden ones left out). */
  static List<String> modelIds(JsonNode configRead, JsonNode modelList) {
    Set<String> ids = new LinkedHashSet<>();
    String configured = configRead.path("config").path("model").asText(null);
    if (configured != null) {
      ids.add(configured);
    }
    modelList.path("data").forEach(model -> {
      if (!model.path("hidden").asBoolean(false)) {
        ids.add(model.path("id").asText());
      }
    });
    return new ArrayList<>(ids);
  }

  /** The string values of {@code AskForApproval} in the generated v2 schema, or none when it cannot be read. */
  static List<String> approvalPolicies(Path schemaFolder) throws IOException {
    Path bundle = schemaFolder.resolve("codex_app_server_protocol.v2.schemas.json");
    if (!Files.isRegularFile(bundle)) {
      return List.of();
    }
    List<String> policies = new ArrayList<>();
    for (JsonNode variant : Json.mapper().readTree(bundle.toFile()).path("definitions").path("AskForApproval").path("oneOf")) {
      variant.path("enum").forEach(value -> policies.add(value.asText()));
    }
    return policies;
  }

  private static List<String> approvalPolicies(CodexSettings settings, Map<String, String> environment, Path scratch) throws IOException, InterruptedException {
    Path out = scratch.resolve("schema");
    List<String> lines = runToEnd(settings, List.of("app-server", "generate-json-schema", "--out", out.toString()), environment, scratch, new StringBuilder());
    return lines == null ? List.of() : approvalPolicies(out);
  }

  private static String version(CodexSettings settings, Map<String, String> environment, Path scratch) throws InterruptedException {
    StringBuilder problem = new StringBuilder();
    List<String> lines = runToEnd(settings, List.of("--version"), environment, scratch, problem);
    if (lines == null) {
      throw new RoundhouseException("codex_failed", problem.toString());
    }
    return lines.stream().map(String::strip).filter(line -> line.matches(".*\\d+\\.\\d+.*"))
        .map(line -> line.replaceFirst("^codex(-cli)?\\s+", "")).findFirst().orElse(null);
  }

  /**
   * Runs codex with {@code args}; its stdout lines, or null when it failed or took too long, with what went
   * wrong (the exit status and the end of its stderr) put in {@code problem}.
   */
  private static List<String> runToEnd(CodexSettings settings, List<String> args, Map<String, String> environment, Path directory,
      StringBuilder problem) throws InterruptedException {
    AgentProcess process;
    try {
      process = AgentProcess.start("codex", settings.command().commandLine(args), directory, environment);
    } catch (IOException e) {
      throw new RoundhouseException("codex_not_installed", "codex is not installed: " + e.getMessage()
          + " (npm install -g @openai/codex, or configure the codex command)");
    }
    try {
      List<String> lines = new CopyOnWriteArrayList<>();
      Thread reader = process.readLines(lines::add, () -> {});
      OptionalInt code = process.awaitExit(TIMEOUT);
      reader.join(Duration.ofSeconds(2));
      if (code.isPresent() && code.getAsInt() == 0) {
        return lines;
      }
      process.awaitStderr(Duration.ofSeconds(2));
      String said = process.stderrTail().lines().filter(line -> !line.isBlank()).reduce((a, b) -> b).orElse("");
      problem.append(settings.command().program()).append(' ').append(String.join(" ", args))
          .append(code.isPresent() ? " exited " + code.getAsInt() : " did not end within " + TIMEOUT.toSeconds() + " s")
          .append(said.isEmpty() ? "" : ": " + said);
      return null;
    } finally {
      process.terminate(Duration.ofMillis(200));
    }
  }

  private static void delete(Path folder) {
    if (folder == null) {
      return;
    }
    try (Stream<Path> paths = Files.walk(folder)) {
      paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // a temporary folder; the OS cleans up
    }
  }
}
