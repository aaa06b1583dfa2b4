package dev.roundhouse.hub.ext;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.model.ExtensionRecord;
import dev.roundhouse.hub.spi.ExtensionRecords;
import dev.roundhouse.hub.store.Store;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import com.fasterxml.jackson.core.JsonProcessingException;

/** {@link ExtensionRecords} over the hub's store. Thread-safe: each call is one store read or write. */
public final class StoredExtensionRecords implements ExtensionRecords {
  private static final Pattern NAMESPACE = Pattern.compile("[a-z][a-z0-9_.-]{0,63}");
  static final int MAX_KEY = 512;
  static final int MAX_VALUE = 1 << 20;
  private static final int LIST_LIMIT = 100_000;

  private final Store store;
  private final String namespace;

  /** @throws IllegalArgumentException naming a namespace that is not lower-case letters, digits, '_', '.', '-' */
  public StoredExtensionRecords(Store store, String namespace) {
    if (!NAMESPACE.matcher(namespace).matches()) {
      throw new IllegalArgumentException("a records namespace is 1-64 of a-z, 0-9, '_', '.', '-' starting with a letter, not '" + namespace + "'");
    }
    this.store = store;
    this.namespace = namespace;
  }

  @Override
  public String namespace() {
    return namespace;
  }

  @Override
  public Optional<ExtensionRecord> get(String key) {
    return store.read(r -> r.extensions().record(namespace, checked(key)));
  }

  @Override
  public <T> Optional<T> get(String key, Class<T> type) {
    return get(key).map(stored -> {
      try {
        return Json.mapper().treeToValue(stored.value(), type);
      } catch (JsonProcessingException e) {
        throw new RoundhouseException("store_error", "the record " + namespace + "/" + key + " is not a " + type.getSimpleName()
            + ": " + e.getOriginalMessage(), e);
      }
    });
  }

  @Override
  public List<ExtensionRecord> list(String prefix) {
    return store.read(r -> r.extensions().records(namespace, prefix, LIST_LIMIT));
  }

  @Override
  public void put(String key, Object value, EventDraft... events) {
    JsonNode json = value(key, value);
    store.write(w -> {
      w.extensions().putRecord(namespace, key, json, w.now());
      for (EventDraft event : events) {
        w.append(event);
      }
      return null;
    });
  }

  @Override
  public boolean putIfAbsent(String key, Object value, EventDraft... events) {
    JsonNode json = value(key, value);
    return store.write(w -> {
      if (!w.extensions().insertRecord(namespace, key, json, w.now())) {
        return false;
      }
      for (EventDraft event : events) {
        w.append(event);
      }
      return true;
    });
  }

  @Override
  public boolean delete(String key, EventDraft... events) {
    checked(key);
    return store.write(w -> {
      if (!w.extensions().deleteRecord(namespace, key)) {
        return false;
      }
      for (EventDraft event : events) {
        w.append(event);
      }
      return true;
    });
  }

  private JsonNode value(String key, Object value) {
    checked(key);
    JsonNode json = value instanceof JsonNode node ? node : Json.tree(value);
    int size = Json.write(json).length();
    if (size > MAX_VALUE) {
      throw new RoundhouseException.InvalidInput("the record " + namespace + "/" + key + " is " + size
          + " characters of JSON; the most a record holds is " + MAX_VALUE);
    }
    return json;
  }

  private String checked(String key) {
    if (key == null || key.isEmpty() || key.length() > MAX_KEY) {
      throw new RoundhouseException.InvalidInput("a record key is 1-" + MAX_KEY + " characters, not "
          + (key == null ? "null" : key.length()) + " (namespace " + namespace + ")");
    }
    return key;
  }
}
