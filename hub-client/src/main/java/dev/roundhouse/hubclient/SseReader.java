package dev.roundhouse.hubclient;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Reads a {@code text/event-stream} body one item at a time: a dispatched event (its {@code id},
 * {@code event} and joined {@code data} lines) or a comment line such as the hub's {@code : keep-alive}.
 * An event cut off by the end of the stream is dropped, as the SSE specification says.
 *
 * <p>Shared by the editor faces and the CLI.
 *
 * <p>Not thread-safe: one thread reads. Closing the underlying stream from another thread ends a read.
 */
public final class SseReader {

  /** One thing read from the stream. */
  public sealed interface Item permits Message, Comment {}

  /**
   * A dispatched event.
   *
   * @param id the {@code id} field, or null
   * @param event the {@code event} field, {@code message} when absent
   * @param data the {@code data} lines joined by newlines
   */
  public record Message(String id, String event, String data) implements Item {}

  /** A comment line, without its leading colon and space. */
  public record Comment(String text) implements Item {}

  private final BufferedReader reader;

  public SseReader(InputStream in) {
    this.reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
  }

  /** The next event or comment; empty at the end of the stream. */
  public Optional<Item> next() throws IOException {
    String id = null;
    String event = null;
    StringBuilder data = null;
    String line;
    while ((line = reader.readLine()) != null) {
      if (line.isEmpty()) {
        if (data != null || event != null || id != null) {
          return Optional.of(new Message(id, event == null ? "message" : event, data == null ? "" : data.toString()));
        }
        continue;
      }
      if (line.startsWith(":")) {
        if (data == null && event == null && id == null) {
          return Optional.of(new Comment(line.substring(1).strip()));
        }
        continue;
      }
      int colon = line.indexOf(':');
      String field = colon < 0 ? line : line.substring(0, colon);
      String value = colon < 0 ? "" : line.substring(colon + 1);
      if (value.startsWith(" ")) {
        value = value.substring(1);
      }
      switch (field) {
        case "id" -> id = value;
        case "event" -> event = value;
        case "data" -> data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
        default -> {
          // retry and unknown fields: the caller chooses its own reconnect delay
        }
      }
    }
    return Optional.empty();
  }
}
