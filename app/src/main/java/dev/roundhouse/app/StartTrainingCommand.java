package dev.roundhouse.app;

import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.http.HubServer;
import dev.roundhouse.mcpserver.oauth.AuthorizationSettings;
import dev.roundhouse.mcpserver.oauth.McpAuthorization;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse start-training} (hidden): the workload the launcher's start cache is trained on
 * ({@code scripts/start-cache.sh} runs it once per jar and JDK, in the background, under
 * {@code -XX:AOTCacheOutput} or {@code -XX:ArchiveClassesAtExit}). It does what the cold starts the cache is for
 * do: opens the hub as {@code serve} does on a scratch home, answers {@code /api/health}, and runs each stdio
 * face ({@code mcp}, {@code acp}, {@code lsp}) through the command line up to its answer to {@code initialize}.
 * The scratch home is deleted afterwards; the real home is never touched.
 *
 * <p>Not thread-safe: picocli fills it and runs it once, on one thread.
 */
@Command(name = "start-training", hidden = true, description = "Train the launcher's start cache (run by ./roundhouse).")
final class StartTrainingCommand implements Callable<Integer> {
  private static final String MCP_INPUT = """
      {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"start-training","version":"1"}}}
      {"jsonrpc":"2.0","method":"notifications/initialized"}
      {"jsonrpc":"2.0","id":2,"method":"tools/list"}
      """;
  private static final String ACP_INPUT = """
      {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1,"clientCapabilities":{}}}
      """;

  private final Context context;

  @Spec CommandSpec spec;

  StartTrainingCommand(Context context) {
    this.context = context;
  }

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    Path home = Files.createTempDirectory("roundhouse-start-training-");
    try {
      Map<String, String> env = new HashMap<>(context.env());
      env.keySet().removeIf(name -> name.startsWith("ROUNDHOUSE_"));
      env.put("ROUNDHOUSE_HOME", home.toString());
      env.put("ROUNDHOUSE_PORT", "0");
      env.put("ROUNDHOUSE_SCHEDULER", "off");
      Context scratch = new Context(env, context.workingDirectory());
      HubConfig config = scratch.hubConfig();
      McpAuthorization authorization = new McpAuthorization(AuthorizationSettings.load(scratch.env()));
      try (Hub hub = ServeCommand.openHub(scratch, config, authorization); HubServer server = ServeCommand.startServer(hub, authorization)) {
        err.println("start-training: health " + health(server.url()));
        face(scratch, err, MCP_INPUT, "mcp");
        face(scratch, err, ACP_INPUT, "acp");
        face(scratch, err, lspInput(), "lsp");
      }
      return ExitCode.OK.status();
    } finally {
      ScratchFolders.delete(home);
    }
  }

  private static void face(Context scratch, PrintWriter err, String input, String command) {
    Context withInput = scratch.withStdin(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
    int status = Cli.run(withInput, new PrintWriter(Writer.nullWriter()), err, command, "--no-start");
    err.println("start-training: " + command + " exited " + status);
  }

  private static int health(String url) throws IOException, InterruptedException {
    try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build()) {
      HttpRequest request = HttpRequest.newBuilder(URI.create(url + "/api/health")).timeout(Duration.ofSeconds(30)).build();
      return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }
  }

  private static String lspInput() {
    StringBuilder input = new StringBuilder();
    for (String message : new String[] {
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"processId\":null,\"rootUri\":null,\"capabilities\":{}}}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}",
        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"shutdown\"}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}"}) {
      input.append("Content-Length: ").append(message.getBytes(StandardCharsets.UTF_8).length).append("\r\n\r\n").append(message);
    }
    return input.toString();
  }
}
