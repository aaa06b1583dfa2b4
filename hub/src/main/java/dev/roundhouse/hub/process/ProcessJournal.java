package dev.roundhouse.hub.process;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the engine writes a {@link ProcessRecord} when it starts a process group and erases it once the
 * group is gone. The hub stores these durably; after a crash it hands what is left to
 * {@link ProcessReaper#reap}. Implementations must be thread-safe and should not block for long.
 */
public interface ProcessJournal {
  /** Called after the group is spawned, and again when its record changes (the leader exec'd). */
  void recorded(ProcessRecord record);

  /** Called once the group has no process left. */
  void erased(ProcessRecord record);

  /** A journal that keeps records in memory (tests, and a hub without a store). Thread-safe. */
  static InMemory inMemory() {
    return new InMemory();
  }

  /** Records kept in a map by run id. Thread-safe. */
  final class InMemory implements ProcessJournal {
    private final ConcurrentHashMap<String, ProcessRecord> records = new ConcurrentHashMap<>();

    @Override
    public void recorded(ProcessRecord record) {
      records.put(record.runId(), record);
    }

    @Override
    public void erased(ProcessRecord record) {
      records.remove(record.runId());
    }

    public Collection<ProcessRecord> records() {
      return List.copyOf(records.values());
    }
  }
}
