package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.ext.StoredExtensionRecords;
import dev.roundhouse.hub.process.Containment;
import dev.roundhouse.hub.process.ProcessJournal;
import dev.roundhouse.hub.process.ProcessRecord;
import dev.roundhouse.hub.process.ProcessScope;
import dev.roundhouse.hub.spi.ExtensionRecords;
import dev.roundhouse.hub.store.Store;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The processes of turns: one {@link ProcessScope} per turn, whose process groups are journaled durably in the
 * hub's own records (namespace {@value #NAMESPACE}, key {@code turn/<run id>/<pid>}) from the moment each
 * starts until the turn has ended and every one of its processes is gone; and, at boot, the reaping of what
 * a crashed hub left behind.
 *
 * <p>Thread-safe: every journal write is one store write; a failed write is logged, never thrown into a
 * driver (the process runs, contained by its group, marker and cgroup, though a crash now would leave it to
 * the hub marker sweep of the next boot).
 */
final class TurnProcesses {
  static final String NAMESPACE = "hub.processes";
  private static final Logger log = LoggerFactory.getLogger(TurnProcesses.class);

  private final Containment containment;
  private final ExtensionRecords records;
  private final ProcessJournal journal;

  TurnProcesses(Containment containment, Store store) {
    this.containment = containment;
    this.records = new StoredExtensionRecords(store, NAMESPACE);
    this.journal = new ProcessJournal() {
      @Override
      public void recorded(ProcessRecord record) {
        try {
          records.put(key(record), record);
        } catch (RuntimeException e) {
          log.warn("could not store the record of {} (pid {}); the next boot's marker sweep still finds it",
              record.owner(), record.pid(), e);
        }
      }

      @Override
      public void erased(ProcessRecord record) {
        try {
          records.delete(key(record));
        } catch (RuntimeException e) {
          log.warn("could not erase the record of {} (pid {}); the next boot finds it gone", record.owner(), record.pid(), e);
        }
      }
    };
  }

  /** A scope for one turn; close it once the driver has returned. */
  ProcessScope open(long turnId) {
    return containment.open("turn:" + turnId, journal);
  }

  /** Ends what the previous hub's turns left running and forgets their records; before any turn runs. */
  void reapLeftovers(Duration grace) {
    List<ProcessRecord> stored = records.list("turn/").stream()
        .map(record -> Json.mapper().convertValue(record.value(), ProcessRecord.class)).toList();
    try {
      containment.reapLeftovers(stored, grace);
    } catch (RuntimeException e) {
      // not Linux (no /proc), say: the hub still starts, and says what it could not do
      log.warn("could not reap what the previous hub's turns left running: {}", e.getMessage());
      return;
    }
    stored.forEach(journal::erased);
  }

  private static String key(ProcessRecord record) {
    return "turn/" + record.runId() + "/" + record.pid();
  }
}
