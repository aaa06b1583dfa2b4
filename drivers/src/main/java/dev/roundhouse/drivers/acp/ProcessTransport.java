package dev.roundhouse.drivers.acp;

import com.agentclientprotocol.sdk.json.TypeRef;
import com.agentclientprotocol.sdk.spec.AcpClientTransport;
import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.agentclientprotocol.sdk.spec.AcpSchema.JSONRPCMessage;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.roundhouse.drivers.process.AgentProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * The SDK's client transport over an {@link AgentProcess}: newline-delimited JSON-RPC on the agent's stdin
 * and stdout. Unlike the SDK's own stdio transport it starts the agent in a process group of its own with
 * exactly the environment given (none of the hub's secrets), reads on one virtual thread, skips a stdout
 * line that is not JSON-RPC instead of giving up on the agent, and reports the end of stdout so pending
 * requests fail at once when the agent dies.
 *
 * <p>Each message is dispatched on the reader thread, in the order the agent wrote it: session updates
 * reach the driver in order, and all of them before the response that follows them.
 *
 * <p>Thread-safe: {@link #sendMessage} may be called from any thread.
 */
final class ProcessTransport implements AcpClientTransport {
  private static final Logger LOG = LoggerFactory.getLogger(ProcessTransport.class);

  private final AgentProcess process;
  private final String name;
  private final LineObserver observer;
  private final Runnable onEnd;
  private volatile Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler;
  private volatile long lastLineNanos = System.nanoTime();

  /**
   * @param onEnd runs once stdout has closed (the agent exited or was killed), on the reader thread
   */
  ProcessTransport(AgentProcess process, String name, LineObserver observer, Runnable onEnd) {
    this.process = process;
    this.name = name;
    this.observer = observer;
    this.onEnd = onEnd;
  }

  @Override
  public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> messageHandler) {
    return Mono.fromRunnable(() -> {
      this.handler = messageHandler;
      process.readLines(this::dispatch, onEnd);
    });
  }

  /** When the agent last wrote a line ({@link System#nanoTime()}). */
  long lastLineNanos() {
    return lastLineNanos;
  }

  private void dispatch(String line) {
    long now = System.nanoTime();
    lastLineNanos = now;
    observer.onLine(now, line);
    if (line.isBlank()) {
      return;
    }
    JSONRPCMessage message;
    try {
      message = AcpSchema.deserializeJsonRpcMessage(AcpJson.SDK_MAPPER, line);
    } catch (IOException | IllegalArgumentException e) {
      LOG.debug("{} wrote a line that is not JSON-RPC; skipped it", name);
      return;
    }
    try {
      handler.apply(Mono.just(message)).subscribe(ignored -> {}, error -> LOG.debug("{}: handling a message failed: {}", name, error.toString()));
    } catch (RuntimeException e) {
      LOG.debug("{}: handling a message failed: {}", name, e.toString());
    }
  }

  @Override
  public Mono<Void> sendMessage(JSONRPCMessage message) {
    return Mono.fromRunnable(() -> {
      try {
        process.send(AcpJson.MAPPER.writeValueAsString(message));
      } catch (JsonProcessingException e) {
        throw new UncheckedIOException(e);
      }
    });
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.fromRunnable(() -> {
      process.closeStdin();
      process.terminate(Duration.ofSeconds(2));
    });
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
    return AcpJson.MAPPER.convertValue(data, AcpJson.MAPPER.getTypeFactory().constructType(typeRef.getType()));
  }
}
