package dev.roundhouse.hub.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.model.ExtensionRecord;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import com.fasterxml.jackson.core.JsonProcessingException;

/** Capability modules' records in SQLite. Not thread-safe: bound to the handle of one read or write. */
final class SqlExtensionRecords implements ExtensionWrites {
  private final Handle handle;

  SqlExtensionRecords(Handle handle) {
    this.handle = handle;
  }

  @Override
  public Optional<ExtensionRecord> record(String namespace, String key) {
    return handle.createQuery("SELECT * FROM extension_records WHERE namespace = :ns AND key = :key")
        .bind("ns", namespace)
        .bind("key", key)
        .map((rs, ctx) -> record(rs))
        .findOne();
  }

  @Override
  public List<ExtensionRecord> records(String namespace, String prefix, int limit) {
    // A range on the primary key rather than LIKE, so '%' and '_' in a prefix mean themselves.
    return handle.createQuery("SELECT * FROM extension_records WHERE namespace = :ns AND key >= :prefix"
            + " AND substr(key, 1, :length) = :prefix ORDER BY key LIMIT :limit")
        .bind("ns", namespace)
        .bind("prefix", prefix)
        .bind("length", prefix.length())
        .bind("limit", limit)
        .map((rs, ctx) -> record(rs))
        .list();
  }

  @Override
  public void putRecord(String namespace, String key, JsonNode value, Instant at) {
    handle.createUpdate("INSERT INTO extension_records (namespace, key, value, updated_at) VALUES (:ns, :key, :value, :at)"
            + " ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at")
        .bind("ns", namespace)
        .bind("key", key)
        .bind("value", Json.write(value))
        .bind("at", at.toEpochMilli())
        .execute();
  }

  @Override
  public boolean insertRecord(String namespace, String key, JsonNode value, Instant at) {
    return handle.createUpdate("INSERT INTO extension_records (namespace, key, value, updated_at) VALUES (:ns, :key, :value, :at)"
            + " ON CONFLICT (namespace, key) DO NOTHING")
        .bind("ns", namespace)
        .bind("key", key)
        .bind("value", Json.write(value))
        .bind("at", at.toEpochMilli())
        .execute() == 1;
  }

  @Override
  public boolean deleteRecord(String namespace, String key) {
    return handle.execute("DELETE FROM extension_records WHERE namespace = ? AND key = ?", namespace, key) == 1;
  }

  private static ExtensionRecord record(ResultSet rs) throws SQLException {
    try {
      return new ExtensionRecord(rs.getString("namespace"), rs.getString("key"),
          Json.mapper().readTree(rs.getString("value")), Instant.ofEpochMilli(rs.getLong("updated_at")));
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the stored record " + rs.getString("namespace") + "/" + rs.getString("key") + " is not JSON", e);
    }
  }
}
