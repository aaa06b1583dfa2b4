package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.errorprone.annotations.concurrent.GuardedBy;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.Locks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The stdio client's side of the relay: each JSON-RPC message becomes one line on stdout, and stdout carries
 * nothing else. Thread-safe: the relay's request threads and its listening thread write at once; a line is
 * written and flushed under a {@link ReentrantLock} held only for that write, so lines never interleave.
 */
final class StdoutLines {
  private final ReentrantLock writeLock = Locks.tracked("stdout");

  @GuardedBy("writeLock")
  private final Writer out;

  StdoutLines(Writer out) {
    this.out = out;
  }

  /**
   * Writes {@code message} as one line and flushes it.
   *
   * @throws UncheckedIOException when stdout is closed
   */
  void write(JsonNode message) {
    writeLine(Json.write(message));
  }

  /**
   * Writes {@code line}, one JSON-RPC message already serialized on one line, and flushes it.
   *
   * @throws UncheckedIOException when stdout is closed
   */
  void writeLine(String line) {
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

  /** A JSON-RPC error answer to the request {@code id} (null when there is none). */
  static ObjectNode error(JsonNode id, int code, String message) {
    ObjectNode answer = Json.mapper().createObjectNode().put("jsonrpc", "2.0");
    answer.set("id", id);
    answer.putObject("error").put("code", code).put("message", message);
    return answer;
  }
}
