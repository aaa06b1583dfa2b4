package dev.roundhouse.services;

import dev.roundhouse.hub.process.ProcessRecord;
import dev.roundhouse.hub.process.ProcessJournal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A journal that keeps every record it was ever given, to count leftovers afterwards. Thread-safe. */
final class RecordingJournal implements ProcessJournal {
  final ProcessJournal.InMemory live = ProcessJournal.inMemory();
  final List<ProcessRecord> everRecorded = new CopyOnWriteArrayList<>();

  @Override
  public void recorded(ProcessRecord record) {
    everRecorded.add(record);
    live.recorded(record);
  }

  @Override
  public void erased(ProcessRecord record) {
    live.erased(record);
  }

  List<String> runIds() {
    return new ArrayList<>(everRecorded.stream().map(ProcessRecord::runId).distinct().toList());
  }

  List<Long> pgids() {
    return new ArrayList<>(everRecorded.stream().map(ProcessRecord::pgid).distinct().toList());
  }
}
