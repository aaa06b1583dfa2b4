package dev.roundhouse.hub.spi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.model.ExtensionRecord;
import java.util.List;
import java.util.Optional;
import dev.roundhouse.hub.core.Json;

/**
 * A capability module's durable records in the hub's own store: JSON values under keys of the module's
 * namespace (a worktree per task, a review, a service definition). The store owns the SQL, so a module
 * never writes any, and a change commits together with the events that report it. Values are written with
 * the hub's JSON mapping (snake_case records); keys are up to 512 characters, values up to 1 MiB of JSON.
 *
 * <p>Thread-safe. Every call is one store read or one durable write; none may be made from inside another.
 */
public interface ExtensionRecords {

  /** The namespace, such as {@code workspace}. */
  String namespace();

  Optional<ExtensionRecord> get(String key);

  /** The value under {@code key}, read as {@code type}. */
  <T> Optional<T> get(String key, Class<T> type);

  /** The records whose key starts with {@code prefix} ({@code ""} for all), in key order. */
  List<ExtensionRecord> list(String prefix);

  /**
   * Creates or replaces the record and appends {@code events} in the same durable transaction; they are
   * published after it commits.
   */
  void put(String key, Object value, EventDraft... events);

  /** Creates the record unless one exists (then changes nothing and appends nothing); true when created. */
  boolean putIfAbsent(String key, Object value, EventDraft... events);

  /** Deletes the record (appending {@code events} with it); true when there was one. */
  boolean delete(String key, EventDraft... events);

  /** The value as JSON, for callers that hold a typed value. */
  static JsonNode json(Object value) {
    return Json.tree(value);
  }
}
