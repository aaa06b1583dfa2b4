package dev.roundhouse.drivers.openai;

import dev.roundhouse.hub.core.Locks;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The MCP stdio transport (newline-delimited JSON-RPC) over a process the turn already started through its
 * {@code ProcessLauncher}: the SDK's own stdio transport starts its process itself, outside the turn's
 * process group and containment, so it is not used. One virtual thread reads the server's stdout and hands
 * each message to the client session.
 *
 * <p>Thread-safe: one lock ({@code mcp-stdio-write}) serialises writing one line to the server's stdin;
 * nothing else is done under it.
 */
final class ProcessStdioTransport implements McpClientTransport {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessStdioTransport.class);

  private final String name;
  private final Process process;
  private final McpJsonMapper json;
  private final OutputStream stdin;
  private final ReentrantLock writeLock = Locks.tracked("mcp-stdio-write");
  private volatile boolean closing;

  /** @param name the server's name, for logs */
  ProcessStdioTransport(String name, Process process, McpJsonMapper json) {
    this.name = name;
    this.process = process;
    this.json = json;
    this.stdin = process.getOutputStream();
  }

  @Override
  public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    return Mono.fromRunnable(() -> Thread.ofVirtual().name("roundhouse-mcp-" + name).start(() -> read(handler)));
  }

  private void read(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = lines.readLine()) != null) {
        if (line.isBlank()) {
          continue;
        }
        McpSchema.JSONRPCMessage message;
        try {
          message = McpSchema.deserializeJsonRpcMessage(json, line);
        } catch (IOException | IllegalArgumentException e) {
          LOG.debug("MCP server {} wrote a line that is not JSON-RPC; skipped it", name);
          continue;
        }
        handler.apply(Mono.just(message)).subscribe(reply -> {}, failure -> LOG.debug("MCP server {}: {}", name, failure.toString()));
      }
    } catch (IOException e) {
      if (!closing) {
        LOG.info("MCP server {} closed its output: {}", name, e.getMessage());
      }
    }
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    return Mono.fromCallable(() -> {
      byte[] line = (json.writeValueAsString(message) + "\n").getBytes(StandardCharsets.UTF_8);
      writeLock.lock();
      try {
        stdin.write(line);
        stdin.flush();
      } finally {
        writeLock.unlock();
      }
      return null;
    }).then();
  }

  /** Closes the server's stdin and waits a moment for it to exit; the turn's launcher kills what is left. */
  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(() -> {
      closing = true;
      try {
        stdin.close();
      } catch (IOException e) {
        // already closed
      }
      try {
        if (!process.waitFor(2, TimeUnit.SECONDS)) {
          process.destroy();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        process.destroy();
      }
    });
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
    return json.convertValue(data, type);
  }
}
