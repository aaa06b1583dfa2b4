package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hubclient.HubAddress;
import dev.roundhouse.hubclient.RemoteHub;
import dev.roundhouse.services.hub.ServicesApi;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code roundhouse service logs NAME --project P [-f] [--tail N]}: the last lines of a service's log
 * ({@code service_logs}); with {@code -f}, the log's SSE stream ({@code GET /api/x/services/{project}/{name}/logs
 * ?follow=1}) until Ctrl-C or the hub ends it. Standard error lines are prefixed with {@code !}, skipped-line
 * markers with {@code #}; {@code --json} prints each line as the hub's JSON. Not thread-safe (picocli command).
 */
@Command(name = "logs", description = "Print a service's log; -f follows it.", mixinStandardHelpOptions = true)
final class ServiceLogsCommand extends ClientCommand {
  @Option(names = {"-p", "--project"}, paramLabel = "P", required = true, description = "The project (id or name).")
  String project;

  @Parameters(paramLabel = "NAME", description = "The service.")
  String service;

  @Option(names = {"-f", "--follow"}, description = "Keep printing new lines until Ctrl-C.")
  boolean follow;

  @Option(names = "--tail", paramLabel = "N", description = "Start N lines from the end (default 200).")
  int tail = 200;

  ServiceLogsCommand(Context context) {
    super(context);
  }

  @Override
  void run(RemoteHub hub, PrintWriter out) {
    if (!follow) {
      JsonNode answer = hub.call("service_logs", new ServicesApi.LogsQuery(project, service, (long) -tail, 2000));
      answer.path("lines").forEach(line -> print(out, line));
      return;
    }
    hub.call("service_logs", new ServicesApi.LogsQuery(project, service, -1L, 1)); // names an unknown service plainly
    String path = "/api/x/services/" + URLEncoder.encode(project, StandardCharsets.UTF_8).replace("+", "%20") + "/"
        + URLEncoder.encode(service, StandardCharsets.UTF_8) + "/logs?follow=1&tail=" + tail;
    HubAddress address = hub.http().address();
    HttpRequest request = HttpRequest.newBuilder(URI.create(address.url() + path))
        .header("Authorization", "Bearer " + address.token())
        .header("Accept", "text/event-stream").GET().build();
    try (HttpClient client = HttpClient.newHttpClient()) {
      HttpResponse<java.io.InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
      if (response.statusCode() != 200) {
        throw new CliFailure(ExitCode.FAILED, "log_refused", "the hub answered " + response.statusCode() + " for " + path);
      }
      try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
        for (String line; (line = lines.readLine()) != null; ) {
          if (line.startsWith("data: ")) {
            print(out, Json.mapper().readTree(line.substring(6)));
            out.flush();
          }
        }
      }
    } catch (IOException e) {
      throw new CliFailure(ExitCode.NO_HUB, "hub_unreachable", "the log stream ended: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliFailure(ExitCode.FAILED, "interrupted", "interrupted", e);
    }
  }

  private void print(PrintWriter out, JsonNode line) {
    if (json()) {
      printJson(out, line);
      return;
    }
    String stream = line.path("stream").asText("");
    out.println((stream.equals("stderr") ? "! " : stream.equals("marker") || line.has("missed") ? "# " : "") + line.path("text").asText());
  }
}
