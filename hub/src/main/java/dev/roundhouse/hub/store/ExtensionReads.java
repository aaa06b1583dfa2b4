package dev.roundhouse.hub.store;

import dev.roundhouse.hub.model.ExtensionRecord;
import java.util.List;
import java.util.Optional;

/** Queries over capability modules' records. Not thread-safe: used by the thread that was handed it. */
public interface ExtensionReads {
  Optional<ExtensionRecord> record(String namespace, String key);

  /** The namespace's records whose key starts with {@code prefix}, in key order, at most {@code limit}. */
  List<ExtensionRecord> records(String namespace, String prefix, int limit);
}
