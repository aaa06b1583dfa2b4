package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.Json;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MCP over stdio, relayed to the hub's Streamable HTTP endpoint: each line on stdin (one JSON-RPC message)
 * is POSTed to {@code /mcp} with the session id and the MCP token; each message in the answer (a JSON body
 * or an SSE stream) becomes one line on stdout. Once the session exists, a GET stream carries the server's
 * own messages (such as {@code resources/updated}) to stdout as well. When stdin closes, in-flight requests
 * finish, the session is deleted and {@link #run} returns. stdout carries nothing but JSON-RPC; diagnostics go
 * to the log (stderr).
 *
 * <p>Thread-safe for its one {@link #run}: requests are relayed on virtual threads; lines are written to
 * stdout one at a time under a lock, which is held only for the write.
 */
final class StdioBridge {
  private static final Logger log = LoggerFactory.getLogger(StdioBridge.class);
  private static final String SESSION = "Mcp-Session-Id";

  private final URI endpoint;
  private final Supplier<String> token;
  private final Writer out;
  private final HttpClient http;
  private final ReentrantLock writeLock = new ReentrantLock();
  private volatile String session;
  private volatile String protocolVersion;
  private volatile Thread listener;

  StdioBridge(URI endpoint, Supplier<String> token, Writer out) {
    this.endpoint = endpoint;
    this.token = token;
    this.out = out;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).executor(Executors.newVirtualThreadPerTaskExecutor()).build();
  }

  /** Relays until {@code in} ends; returns 0. */
  int run(InputStream in) {
    try (ExecutorService requests = Executors.newVirtualThreadPerTaskExecutor();
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line; (line = reader.readLine()) != null; ) {
        if (line.isBlank()) {
          continue;
        }
        String message = line;
        if (session == null) {
          relay(message); // initialize: everything after it needs the session id it yields
        } else {
          requests.submit(() -> relay(message));
        }
      }
      requests.shutdown();
      requests.awaitTermination(30, TimeUnit.SECONDS);
    } catch (IOException e) {
      log.warn("reading stdin failed: {}", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      close();
    }
    return 0;
  }

  private void relay(String line) {
    JsonNode message;
    try {
      message = Json.mapper().readTree(line);
    } catch (IOException e) {
      write(error(null, -32700, "Parse error: " + e.getMessage().lines().findFirst().orElse("")));
      return;
    }
    JsonNode id = message.get("id");
    boolean request = message.hasNonNull("method") && id != null;
    try {
      HttpResponse<InputStream> response = http.send(post(line), HttpResponse.BodyHandlers.ofInputStream());
      response.headers().firstValue(SESSION).ifPresent(value -> {
        if (session == null) {
          session = value;
        }
      });
      String type = response.headers().firstValue("Content-Type").orElse("");
      try (InputStream body = response.body()) {
        if (type.startsWith("text/event-stream")) {
          readEvents(body);
        } else {
          byte[] bytes = body.readAllBytes();
          if (bytes.length > 0) {
            JsonNode answer = Json.mapper().readTree(bytes);
            if (response.statusCode() >= 400 && request && answer.path("id").isNull()) {
              ((ObjectNode) answer).set("id", id); // the hub's refusal, addressed to the request it refused
            }
            write(answer);
            rememberVersion(answer);
          } else if (response.statusCode() >= 400 && request) {
            write(error(id, -32603, "the hub answered HTTP " + response.statusCode()));
          }
        }
      }
      if (session != null && listener == null && "initialize".equals(message.path("method").asText())) {
        startListening();
      }
    } catch (IOException e) {
      log.warn("relaying to {} failed: {}", endpoint, e.toString());
      if (request) {
        write(error(id, -32603, "the hub at " + endpoint + " does not answer: " + e.getMessage()));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void rememberVersion(JsonNode answer) {
    JsonNode version = answer.path("result").path("protocolVersion");
    if (version.isTextual()) {
      protocolVersion = version.asText();
    }
  }

  private HttpRequest post(String line) {
    return request().header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString(line, StandardCharsets.UTF_8)).build();
  }

  private HttpRequest.Builder request() {
    HttpRequest.Builder builder = HttpRequest.newBuilder(endpoint).header("Authorization", "Bearer " + token.get());
    if (session != null) {
      builder.header(SESSION, session);
    }
    if (protocolVersion != null) {
      builder.header("MCP-Protocol-Version", protocolVersion);
    }
    return builder;
  }

  /** Writes each SSE event's data as one line, until the stream ends. */
  private void readEvents(InputStream body) throws IOException {
    BufferedReader events = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
    StringBuilder data = new StringBuilder();
    for (String line; (line = events.readLine()) != null; ) {
      if (line.isEmpty()) {
        if (!data.isEmpty()) {
          JsonNode message = Json.mapper().readTree(data.toString());
          rememberVersion(message);
          write(message);
          data.setLength(0);
        }
      } else if (line.startsWith("data:")) {
        if (!data.isEmpty()) {
          data.append('\n');
        }
        data.append(line.substring(line.startsWith("data: ") ? 6 : 5));
      }
    }
  }

  /** The server's own messages (notifications, requests to the client) on a GET stream, reopened if it drops. */
  private void startListening() {
    listener = Thread.ofVirtual().name("mcp-stdio-listen").start(() -> {
      while (!Thread.currentThread().isInterrupted()) {
        try {
          HttpResponse<InputStream> response =
              http.send(request().header("Accept", "text/event-stream").GET().build(), HttpResponse.BodyHandlers.ofInputStream());
          if (response.statusCode() != 200) {
            log.debug("the hub refused the listening stream: HTTP {}", response.statusCode());
            response.body().close();
            return;
          }
          try (InputStream body = response.body()) {
            readEvents(body);
          }
        } catch (IOException e) {
          log.debug("listening stream ended: {}", e.toString());
          try {
            Thread.sleep(1000);
          } catch (InterruptedException interrupted) {
            return;
          }
        } catch (InterruptedException e) {
          return;
        }
      }
    });
  }

  private static ObjectNode error(JsonNode id, int code, String message) {
    ObjectNode answer = Json.mapper().createObjectNode().put("jsonrpc", "2.0");
    answer.set("id", id);
    answer.putObject("error").put("code", code).put("message", message);
    return answer;
  }

  private void write(JsonNode message) {
    String line = Json.write(message);
    writeLock.lock();
    try {
      out.write(line);
      out.write('\n');
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("stdout is closed", e);
    } finally {
      writeLock.unlock();
    }
  }

  private void close() {
    Thread listening = listener;
    if (listening != null) {
      listening.interrupt();
    }
    if (session != null) {
      try {
        http.send(request().DELETE().build(), HttpResponse.BodyHandlers.discarding());
      } catch (IOException e) {
        log.debug("deleting the session failed: {}", e.toString());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    http.close();
  }
}
