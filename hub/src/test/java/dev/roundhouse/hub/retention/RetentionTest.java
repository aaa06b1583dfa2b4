package dev.roundhouse.hub.retention;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.api.RetentionApi.KeptTask;
import dev.roundhouse.hub.api.RetentionApi.PruneRequest;
import dev.roundhouse.hub.api.RetentionApi.PruneResult;
import dev.roundhouse.hub.api.RetentionApi.PrunedTask;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.model.Priority;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.model.TurnStatus;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.store.StoreTestRows;
import dev.roundhouse.hub.testing.ManualClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The retention policy on a real SQLite file with a clock the test moves: one test per protection rule, each
 * with an otherwise identical unprotected task that is pruned beside the protected one that is kept.
 */
class RetentionTest {
  private static final Instant START = Instant.parse("2026-03-02T09:00:00Z");

  private Path home;
  private Path database;
  private ManualClock clock;
  private Store store;
  private Retention retention;
  private long project;

  @BeforeEach
  void open() throws IOException {
    home = Files.createTempDirectory("roundhouse-retention-");
    database = home.resolve("roundhouse.db");
    clock = new ManualClock(START);
    store = Store.sqlite(database, clock, 256, (events, at) -> {});
    retention = new Retention(store, new RetentionSettings(30), clock);
    project = store.write(w -> w.insertProject(new Project(0, "web", home.toString(), null, null, w.now(), w.now()))).id();
  }

  @AfterEach
  void close() throws IOException {
    retention.close();
    store.close();
    try (Stream<Path> paths = Files.walk(home)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  // --- the protection rules: one test each, a protected task kept beside an identical one pruned ---

  @Test
  void queuedMessageKeepsTheTask() {
    assertProtects("queued_messages",
        task -> store.write(w -> w.runner().enqueue(task, "and one more thing", null, Actor.USER, w.now())));
  }

  @Test
  void runningTurnKeepsTheTask() {
    assertProtects("live_turn", task -> store.write(w -> w.runner().insertTurn(task, 1, "script", false, Actor.USER, w.now())));
  }

  @Test
  void lingeringTurnKeepsTheTask() {
    assertProtects("live_turn", task -> store.write(w -> {
      Turn turn = w.runner().insertTurn(task, 1, "script", false, Actor.USER, w.now());
      w.runner().setTurnStatus(turn.id(), TurnStatus.LINGERING);
      return null;
    }));
  }

  @Test
  void pendingDecisionKeepsTheTask() {
    assertProtects("pending_decision", task -> store.write(w -> w.runner().insertDecision(
        "question", project, task, null, "Which branch?", Json.mapper().createObjectNode(), List.of("main", "dev"), w.now())));
  }

  @Test
  void scheduledRunInFlightKeepsTheTask() {
    assertProtects("scheduled_run", task -> StoreTestRows.scheduleRun(database, project, task, "running", clock.millis()));
  }

  @Test
  void finishedScheduledRunDoesNotKeepTheTask() {
    long finished = finishedTask("nightly triage", 5);
    StoreTestRows.scheduleRun(database, project, finished, "done", clock.millis());
    clock.advance(Duration.ofDays(31));

    PruneResult result = retention.prune(Actor.USER, new PruneRequest(null, false));

    assertThat(result.tasks()).extracting(PrunedTask::task).containsExactly(finished);
  }

  @Test
  void moduleRecordOfTheTaskKeepsItsSession() {
    assertProtects("session_referenced", task -> store.write(w -> {
      w.extensions().putRecord("workspace", "task/" + task, Json.mapper().createObjectNode().put("path", "/w/" + task), w.now());
      return null;
    }));
  }

  @Test
  void recordOfAnotherTaskOrKindDoesNotKeepIt() {
    long pruned = finishedTask("done", 3);
    store.write(w -> {
      // task/1<id> is another task; pr/<id>/1 is not a task/ record
      w.extensions().putRecord("workspace", "task/1" + pruned, Json.mapper().createObjectNode(), w.now());
      w.extensions().putRecord("workspace", "pr/" + pruned + "/1", Json.mapper().createObjectNode(), w.now());
      return null;
    });
    clock.advance(Duration.ofDays(31));

    assertThat(retention.prune(Actor.USER, new PruneRequest(null, false)).tasks()).extracting(PrunedTask::task).containsExactly(pruned);
  }

  @Test
  void unfinishedTaskIsKept() {
    long done = finishedTask("done", 3);
    long review = finishedTask("in review", 3);
    setStatus(review, TaskStatus.REVIEW);
    clock.advance(Duration.ofDays(31));

    PruneResult result = retention.prune(Actor.USER, new PruneRequest(null, false));

    assertThat(result.tasks()).extracting(PrunedTask::task).containsExactly(done);
    assertThat(eventTypes(review)).hasSize(4); // task.created and its three
  }

  @Test
  void taskActiveWithinTheDaysIsKeptAndCancelledOneIsPruned() {
    long old = finishedTask("old", 3);
    setStatus(old, TaskStatus.CANCELLED);
    clock.advance(Duration.ofDays(20));
    long recent = finishedTask("recent", 3);
    clock.advance(Duration.ofDays(11)); // old: 31 days idle, recent: 11

    PruneResult result = retention.prune(Actor.USER, new PruneRequest(null, false));

    assertThat(result.tasks()).extracting(PrunedTask::task).containsExactly(old);
    assertThat(result.tasks().getFirst().status()).isEqualTo("cancelled");
    assertThat(eventTypes(recent)).hasSize(4);
    // a shorter override reaches it
    assertThat(retention.prune(Actor.USER, new PruneRequest(10, false)).tasks()).extracting(PrunedTask::task).containsExactly(recent);
  }

  // --- what pruning removes and keeps ---

  @Test
  void pruningKeepsTheTaskItsTurnsAndOneMarkerWithTheRange() {
    long task = finishedTask("refactor", 10);
    List<Event> before = store.taskEventsAfter(task, 0, 1000);
    long lastSeqBefore = store.lastSeq();
    clock.advance(Duration.ofDays(31));

    PruneResult result = retention.prune(Actor.USER, new PruneRequest(null, false));

    assertThat(result.events()).isEqualTo(11);
    List<Event> after = store.taskEventsAfter(task, 0, 1000);
    assertThat(after).hasSize(1);
    Event marker = after.getFirst();
    assertThat(marker.type()).isEqualTo("task.pruned");
    assertThat(marker.seq()).isGreaterThan(lastSeqBefore); // sequence numbers are never reused
    assertThat(marker.data().path("events").asLong()).isEqualTo(11);
    assertThat(marker.data().path("first_seq").asLong()).isEqualTo(before.getFirst().seq());
    assertThat(marker.data().path("last_seq").asLong()).isEqualTo(before.getLast().seq());
    assertThat(marker.data().path("days").asInt()).isEqualTo(30);
    java.util.Optional<Task> row = store.read(r -> r.task(task));
    assertThat(row).isPresent();
    List<Turn> turns = store.read(r -> r.runner().turns(task, 10));
    assertThat(turns).singleElement().satisfies(t -> assertThat(t.sessionId()).isEqualTo("session-" + task));
    // the transcript shows where its events went
    List<Event> transcript = store.read(r -> r.runner().taskEvents(task, 0, Long.MAX_VALUE, 100, true));
    assertThat(transcript).extracting(Event::type).containsExactly("task.pruned");
    // a face resuming from a pruned position gets what came after, with no error
    assertThat(store.eventsAfter(before.get(3).seq(), 100)).extracting(Event::seq).contains(marker.seq());
    Event next = store.append(new EventDraft("task.updated", Actor.USER, project, task, Json.mapper().createObjectNode()));
    assertThat(next.seq()).isGreaterThan(marker.seq());
  }

  @Test
  void prunedTaskIsNotPrunedAgainUntilItHasNewEvents() {
    long task = finishedTask("once", 4);
    clock.advance(Duration.ofDays(31));
    assertThat(retention.prune(Actor.USER, new PruneRequest(null, false)).tasks()).hasSize(1);

    clock.advance(Duration.ofDays(31));
    assertThat(retention.prune(Actor.USER, new PruneRequest(null, false)).tasks()).isEmpty();
    assertThat(eventTypes(task)).containsExactly("task.pruned");
  }

  @Test
  void dryRunListsWhatWouldGoAndChangesNothing() {
    long pruned = finishedTask("would go", 6);
    long kept = finishedTask("kept", 6);
    store.write(w -> w.runner().enqueue(kept, "later", null, Actor.USER, w.now()));
    clock.advance(Duration.ofDays(31));
    long lastSeq = store.lastSeq();
    long size = fileSize();

    PruneResult result = retention.prune(Actor.USER, new PruneRequest(null, true));

    assertThat(result.dryRun()).isTrue();
    assertThat(result.tasks()).singleElement().satisfies(t -> {
      assertThat(t.task()).isEqualTo(pruned);
      assertThat(t.title()).isEqualTo("would go");
      assertThat(t.events()).isEqualTo(7);
      assertThat(t.bytes()).isGreaterThan(6 * 1000);
    });
    assertThat(result.kept()).singleElement().satisfies(k -> {
      assertThat(k.task()).isEqualTo(kept);
      assertThat(k.reasons()).containsExactly("queued_messages");
      assertThat(k.detail()).isEqualTo("1 message queued");
    });
    assertThat(result.compaction()).isNull();
    assertThat(store.lastSeq()).isEqualTo(lastSeq);
    assertThat(eventTypes(pruned)).hasSize(7);
    assertThat(fileSize()).isEqualTo(size);
  }

  @Test
  void daysMustBePositiveAndAreNeededWhenThePolicyIsOff() {
    assertThatThrownBy(() -> retention.prune(Actor.USER, new PruneRequest(0, true)))
        .isInstanceOf(RoundhouseException.InvalidInput.class).hasMessageContaining("days must be at least 1, not 0");
    try (Retention off = new Retention(store, RetentionSettings.OFF, clock)) {
      assertThatThrownBy(() -> off.prune(Actor.USER, new PruneRequest(null, false)))
          .isInstanceOf(RoundhouseException.InvalidInput.class).hasMessageContaining("retention is off");
      assertThat(off.tick()).isFalse();
      assertThat(off.status().eligible()).isNull();
      assertThat(off.status().policy().automatic()).isFalse();
    }
  }

  // --- the daily run ---

  @Test
  void dailyRunPrunesOnceADayOnTheClock() {
    long first = finishedTask("first", 3);
    clock.advance(Duration.ofDays(31));

    assertThat(retention.tick()).isTrue();
    assertThat(eventTypes(first)).containsExactly("task.pruned");
    assertThat(retention.status().lastRun().actor()).isEqualTo("scheduler");

    long second = finishedTask("second", 3);
    clock.advance(Duration.ofHours(23));
    assertThat(retention.tick()).isFalse();
    clock.advance(Duration.ofDays(31));
    assertThat(retention.tick()).isTrue();
    assertThat(eventTypes(second)).containsExactly("task.pruned");
    assertThat(retention.status().policy().nextRun()).isEqualTo(clock.instant().plus(Duration.ofDays(1)));
  }

  // --- the file shrinks ---

  @Test
  void newDatabaseUsesIncrementalVacuumAndShrinksAfterAPrune() {
    assertThat(autoVacuum()).isEqualTo("incremental");
    List<Long> tasks = bulkTasks(8, 400); // ~3.2 MB of events
    clock.advance(Duration.ofDays(31));
    long sizeBefore = checkpointedSize();

    PruneResult result = retention.prune(Actor.USER, new PruneRequest(null, false));

    assertThat(result.tasks()).hasSize(tasks.size());
    assertThat(result.compaction().fullVacuum()).isFalse();
    assertThat(result.compaction().fileBytesBefore()).isEqualTo(sizeBefore);
    long sizeAfter = fileSize();
    assertThat(result.compaction().fileBytesAfter()).isEqualTo(sizeAfter);
    assertThat(sizeAfter).isLessThan(sizeBefore - result.bytes() / 2);
    assertThat(result.bytesFreed()).isEqualTo(sizeBefore - sizeAfter);
    System.out.printf("retention: incremental: %d bytes before, %d after, %d events (%d bytes) pruned%n",
        sizeBefore, sizeAfter, result.events(), result.bytes());
  }

  @Test
  void oldDatabaseIsVacuumedInFullOnceThenIncrementally() throws IOException {
    store.close();
    Path legacy = home.resolve("legacy.db");
    StoreTestRows.legacyDatabase(legacy);
    store = Store.sqlite(legacy, clock, 256, (events, at) -> {});
    retention = new Retention(store, new RetentionSettings(30), clock);
    project = store.write(w -> w.insertProject(new Project(0, "old", home.toString(), null, null, w.now(), w.now()))).id();
    assertThat(autoVacuum()).isEqualTo("none");
    assertThat(retention.status().policy().autoVacuum()).isEqualTo("none");
    bulkTasks(6, 400);
    clock.advance(Duration.ofDays(31));

    PruneResult first = retention.prune(Actor.USER, new PruneRequest(null, false));

    assertThat(first.compaction().fullVacuum()).isTrue();
    assertThat(first.compaction().fileBytesAfter()).isLessThan(first.compaction().fileBytesBefore() - first.bytes() / 2);
    assertThat(Files.size(legacy)).isEqualTo(first.compaction().fileBytesAfter());
    assertThat(autoVacuum()).isEqualTo("incremental");
    System.out.printf("retention: full vacuum: %d bytes before, %d after%n",
        first.compaction().fileBytesBefore(), first.compaction().fileBytesAfter());

    bulkTasks(6, 400);
    clock.advance(Duration.ofDays(31));
    PruneResult second = retention.prune(Actor.USER, new PruneRequest(null, false));

    assertThat(second.compaction().fullVacuum()).isFalse();
    assertThat(second.compaction().fileBytesAfter()).isLessThan(second.compaction().fileBytesBefore() - second.bytes() / 2);
    System.out.printf("retention: then incremental: %d bytes before, %d after%n",
        second.compaction().fileBytesBefore(), second.compaction().fileBytesAfter());
  }

  @Test
  void writesQueuedAroundACompactionAllCommit() throws Exception {
    bulkTasks(2, 200);
    clock.advance(Duration.ofDays(31));
    store.write(w -> w.retention().deleteTaskEvents(1, Long.MAX_VALUE));
    List<Thread> writers = new java.util.ArrayList<>();
    for (int i = 0; i < 8; i++) {
      writers.add(Thread.ofVirtual().start(() -> store.append(
          new EventDraft("task.updated", Actor.USER, project, null, Json.mapper().createObjectNode()))));
    }
    var compaction = store.compact();
    for (Thread writer : writers) {
      writer.join();
    }
    assertThat(compaction.fileBytesAfter()).isLessThanOrEqualTo(compaction.fileBytesBefore());
    assertThat(store.eventsAfter(0, 10_000).stream().filter(e -> e.taskId() == null)).hasSize(8);
  }

  // --- helpers ---

  private void assertProtects(String rule, LongConsumer protect) {
    long pruned = finishedTask("unprotected", 5);
    long kept = finishedTask("protected", 5);
    protect.accept(kept);
    clock.advance(Duration.ofDays(31));

    PruneResult dry = retention.prune(Actor.USER, new PruneRequest(null, true));
    PruneResult result = retention.prune(Actor.USER, new PruneRequest(null, false));

    assertThat(dry.tasks()).extracting(PrunedTask::task).containsExactly(pruned);
    assertThat(result.tasks()).extracting(PrunedTask::task).containsExactly(pruned);
    assertThat(result.kept()).extracting(KeptTask::task).containsExactly(kept);
    assertThat(result.kept().getFirst().reasons()).containsExactly(rule);
    assertThat(eventTypes(pruned)).containsExactly("task.pruned");
    assertThat(eventTypes(kept)).hasSizeGreaterThanOrEqualTo(6).doesNotContain("task.pruned");
  }

  /** A done task with a finished turn (and its session) and {@code events} transcript events of ~1 KB. */
  private long finishedTask(String title, int events) {
    return store.write(w -> {
      Instant now = w.now();
      Task task = w.insertTask(new Task(0, project, title, null, TaskStatus.DONE, Priority.NORMAL, List.of(), List.of(), false,
          "script", null, null, false, Actor.USER, now, now));
      w.append(new EventDraft("task.created", Actor.USER, project, task.id(), Json.tree(task)));
      Turn turn = w.runner().insertTurn(task.id(), 1, "script", false, Actor.USER, now);
      w.runner().setTurnSession(turn.id(), "session-" + task.id());
      for (int i = 0; i < events; i++) {
        ObjectNode data = Json.mapper().createObjectNode().put("turn", turn.id()).put("text", "x".repeat(1000) + i);
        w.append(new EventDraft("turn.message", Actor.agent(task.id()), project, task.id(), data));
      }
      w.runner().endTurn(turn.id(), TurnStatus.COMPLETED, null, now);
      return task.id();
    });
  }

  private List<Long> bulkTasks(int count, int eventsEach) {
    List<Long> ids = new java.util.ArrayList<>();
    for (int i = 0; i < count; i++) {
      ids.add(finishedTask("bulk " + i, eventsEach));
    }
    return ids;
  }

  private void setStatus(long id, TaskStatus status) {
    store.write(w -> {
      Task t = w.task(id).orElseThrow();
      w.updateTask(new Task(t.id(), t.projectId(), t.title(), t.description(), status, t.priority(), t.tags(), t.blockedBy(),
          t.suggested(), t.agent(), t.branch(), t.startAt(), t.autoStart(), t.createdBy(), t.createdAt(), w.now()));
      return null;
    });
  }

  private List<String> eventTypes(long task) {
    return store.taskEventsAfter(task, 0, 100_000).stream().map(Event::type).toList();
  }

  private String autoVacuum() {
    return store.read(r -> r.retention().autoVacuum());
  }

  private long checkpointedSize() {
    // a compaction with nothing freed is a checkpoint plus a measurement
    return store.compact().fileBytesAfter();
  }

  private long fileSize() {
    try {
      return Files.size(database);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
