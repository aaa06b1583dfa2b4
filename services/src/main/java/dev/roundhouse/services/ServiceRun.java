package dev.roundhouse.services;

import dev.roundhouse.hub.process.ProcessGroup;
import dev.roundhouse.hub.process.ProcessRecord;
import dev.roundhouse.hub.process.ProcessScope;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * One spawned run of a service: its process, its scope (cgroup, markers, record), its group, its output readers
 * and what ended it. Fields
 * that change are volatile or guarded by the owning {@link ManagedService}'s lock (readinessTimer).
 */
final class ServiceRun {
  final ProcessScope scope;
  final Process process;
  final ProcessRecord record;
  final ProcessGroup group;
  final Instant startedAt;
  final Pattern readyPattern;
  final CompletableFuture<Void> ended = new CompletableFuture<>();
  volatile boolean stopRequested;
  volatile boolean notReadyInTime;
  volatile boolean ready;
  /** Guarded by the ManagedService lock. */
  Subscription readinessTimer;
  private Thread stdout;
  private Thread stderr;

  ServiceRun(ProcessScope scope, Process process, Instant startedAt, Pattern readyPattern) {
    this.scope = scope;
    this.process = process;
    this.record = scope.records().getFirst();
    // Our child leads the group, and Java has not reaped it yet: the pgid cannot have been reused.
    this.group = new ProcessGroup(record, true);
    this.startedAt = startedAt;
    this.readyPattern = readyPattern;
  }

  long pid() {
    return record.pid();
  }

  Process process() {
    return process;
  }

  void startReaders(OutputPump out, OutputPump err, String name) {
    stdout = Thread.ofVirtual().name("service-" + name + "-stdout").start(out);
    stderr = Thread.ofVirtual().name("service-" + name + "-stderr").start(err);
  }

  /** Waits for the readers to drain what the group wrote before it ended (the pipes close then). */
  void joinReaders(Duration timeout) {
    try {
      long deadline = System.nanoTime() + timeout.toNanos();
      for (Thread reader : new Thread[] {stdout, stderr}) {
        if (reader != null) {
          reader.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
