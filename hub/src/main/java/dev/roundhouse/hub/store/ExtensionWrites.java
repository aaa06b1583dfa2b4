package dev.roundhouse.hub.store;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/** Changes to capability modules' records, inside the writer's transaction. Writer thread only. */
public interface ExtensionWrites extends ExtensionReads {
  /** Creates or replaces the record. */
  void putRecord(String namespace, String key, JsonNode value, Instant at);

  /** Creates the record unless one exists; true when it was created. */
  boolean insertRecord(String namespace, String key, JsonNode value, Instant at);

  /** True when there was a record to delete. */
  boolean deleteRecord(String namespace, String key);
}
