package dev.roundhouse.hub.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.events.EventSink;
import dev.roundhouse.hub.model.MissedPolicy;
import dev.roundhouse.hub.model.OverlapPolicy;
import dev.roundhouse.hub.model.Priority;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Runbook;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hub.model.ScheduleRun;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.model.TurnStatus;
import dev.roundhouse.hub.model.Worker;
import dev.roundhouse.hub.testing.ManualClock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Store} backend must do, run unchanged against each ({@link SqliteStoreContractTest},
 * {@link PostgresStoreContractTest}). Where the backends may differ, the test says so and what each does.
 */
abstract class StoreContract {
  static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  final ManualClock clock = new ManualClock(T0);
  final List<Event> published = new CopyOnWriteArrayList<>();
  final EventSink sink = (events, at) -> published.addAll(events);
  Store store;

  /** A new store on a new, empty database. */
  abstract Store openNew(ManualClock clock, EventSink sink);

  /** The store of the previous {@link #openNew} again, after it was closed. */
  abstract Store reopen(ManualClock clock, EventSink sink);

  abstract String backend();

  @BeforeEach
  void open() {
    store = openNew(clock, sink);
  }

  @AfterEach
  void close() {
    store.close();
  }

  // Typed views of store.read and store.write, so assertThat picks the assertion for each kind of result.
  <X> Optional<X> one(Function<StoreReader, Optional<X>> query) {
    return store.read(query);
  }

  <X> List<X> list(Function<StoreReader, List<X>> query) {
    return store.read(query);
  }

  <K, V> Map<K, V> map(Function<StoreReader, Map<K, V>> query) {
    return store.read(query);
  }

  String text(Function<StoreReader, String> query) {
    return store.read(query);
  }

  boolean wrote(Function<StoreWriter, Boolean> change) {
    return store.write(change);
  }

  int changed(Function<StoreWriter, Integer> change) {
    return store.write(change);
  }

  Project project(String name) {
    return store.write(w -> w.insertProject(new Project(0, name, "/src/" + name, null, null, w.now(), w.now())));
  }

  Task task(long project, String title, List<String> tags, List<Long> blockers) {
    return store.write(w -> w.insertTask(new Task(0, project, title, null, TaskStatus.TODO, Priority.NORMAL, tags, blockers,
        false, null, null, null, false, Actor.USER, w.now(), w.now())));
  }

  static EventDraft draft(String type, Long task, int n) {
    ObjectNode data = JsonNodeFactory.instance.objectNode().put("n", n);
    return new EventDraft(type, Actor.USER, null, task, data);
  }

  @Test
  void aNewDatabaseIsAtTheLatestSchemaAndEmpty() {
    assertThat(store.schemaVersion()).isEqualTo(Migrations.latest());
    assertThat(store.backend()).isEqualTo(backend());
    assertThat(store.read(StoreReader::projects)).isEmpty();
    assertThat(store.lastSeq()).isZero();
  }

  @Test
  void projectsAreFoundAndSortedIgnoringCaseAndTheirNamesAreUniqueIgnoringCase() {
    project("web");
    project("Api");
    project("billing");
    assertThat(store.read(StoreReader::projects)).extracting(Project::name).containsExactly("Api", "billing", "web");
    assertThat(one(r -> r.projectByName("WEB"))).map(Project::name).contains("web");
    assertThatThrownBy(() -> project("Web")).isInstanceOf(RuntimeException.class);
    assertThat(store.read(StoreReader::projects)).hasSize(3);
  }

  @Test
  void aTaskKeepsItsTagsSortedAndItsBlockersAndLosesThemWhenDeleted() {
    long p = project("web").id();
    Task blocker = task(p, "blocker", List.of(), List.of());
    Task t = task(p, "Fix login", List.of("ui", "bug", "auth"), List.of(blocker.id()));
    Task read = store.read(r -> r.task(t.id())).orElseThrow();
    assertThat(read.tags()).containsExactly("auth", "bug", "ui");
    assertThat(read.blockedBy()).containsExactly(blocker.id());
    assertThat(one(r -> r.task(blocker.id())).orElseThrow().tags()).isEmpty();
    assertThat(map(r -> r.blockerEdges(p))).containsEntry(t.id(), List.of(blocker.id()));
    store.write(w -> {
      w.deleteTask(t.id());
      return null;
    });
    assertThat(one(r -> r.task(t.id()))).isEmpty();
    assertThat(list(r -> r.tags(p))).isEmpty();
  }

  @Test
  void taskSearchMatchesTextIgnoringAsciiCaseAndTakesWildcardsLiterally() {
    long p = project("web").id();
    task(p, "Fix the LOGIN page", List.of(), List.of());
    task(p, "100% coverage", List.of(), List.of());
    task(p, "snake_case names", List.of(), List.of());
    task(p, "snakeXcase names", List.of(), List.of());
    assertThat(search(p, "login")).containsExactly("Fix the LOGIN page");
    assertThat(search(p, "0%")).containsExactly("100% coverage");
    assertThat(search(p, "e_c")).containsExactly("snake_case names");
    assertThat(search(p, "!")).isEmpty();
  }

  private List<String> search(long project, String text) {
    return store.read(r -> r.tasks(new TaskQuery(project, Set.of(), null, text, 50, 0))).stream().map(Task::title).toList();
  }

  @Test
  void tasksFilterByStatusAndTagAndPageInBoardOrder() {
    long p = project("web").id();
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      clock.advance(java.time.Duration.ofSeconds(1));
      ids.add(task(p, "t" + i, i % 2 == 0 ? List.of("even") : List.of(), List.of()).id());
    }
    List<Task> page = store.read(r -> r.tasks(new TaskQuery(p, Set.of(TaskStatus.TODO), null, null, 2, 1)));
    assertThat(page).extracting(Task::title).containsExactly("t3", "t2");
    List<Task> even = store.read(r -> r.tasks(new TaskQuery(p, Set.of(), "even", null, 10, 0)));
    assertThat(even).extracting(Task::title).containsExactly("t4", "t2", "t0");
    assertThat(list(r -> r.tasks(new TaskQuery(p, Set.of(TaskStatus.DONE), null, null, 10, 0)))).isEmpty();
  }

  @Test
  void tagsAreCountedRenamedAndMerged() {
    long p = project("web").id();
    task(p, "a", List.of("ui", "bug"), List.of());
    task(p, "b", List.of("ux"), List.of());
    store.write(w -> {
      w.upsertTag("ui", "#112233", "interface");
      w.renameTag("ux", "ui");
      return null;
    });
    assertThat(list(r -> r.tags(p))).extracting(t -> t.name() + "=" + t.tasks() + " " + t.color())
        .containsExactly("bug=1 null", "ui=2 #112233");
  }

  @Test
  void editsAreListedNewestFirstAndRemembersTheirRevert() {
    long p = project("web").id();
    long t = task(p, "a", List.of(), List.of()).id();
    long first = store.write(w -> w.recordEdit(t, Actor.USER, "title", JsonNodeFactory.instance.textNode("a"),
        JsonNodeFactory.instance.textNode("b"), w.now()));
    long second = store.write(w -> w.recordEdit(t, Actor.USER, "priority", null, JsonNodeFactory.instance.textNode("high"), w.now()));
    store.write(w -> {
      w.markEditReverted(first, Actor.USER, w.now());
      return null;
    });
    assertThat(list(r -> r.edits(t, 10))).extracting(e -> e.id()).containsExactly(second, first);
    assertThat(one(r -> r.edit(first)).orElseThrow().revertedAt()).isEqualTo(T0);
    assertThat(one(r -> r.edit(second)).orElseThrow().before()).isNull();
  }

  @Test
  void eventsGetGapFreeSequenceNumbersAndArePublishedAfterCommitInOrder() {
    for (int i = 1; i <= 5; i++) {
      Event e = store.append(draft("test.event", null, i));
      assertThat(e.seq()).isEqualTo(i);
    }
    assertThat(store.lastSeq()).isEqualTo(5);
    assertThat(store.eventsAfter(2, 10)).extracting(Event::seq).containsExactly(3L, 4L, 5L);
    assertThat(published).extracting(Event::seq).containsExactly(1L, 2L, 3L, 4L, 5L);
    assertThat(store.eventsAfter(0, 1).getFirst().data().path("n").asInt()).isEqualTo(1);
  }

  @Test
  void aFailedWriteLeavesNoEventAndNoGapAndTheOthersInItsBatchCommit() throws Exception {
    List<Future<?>> results = new ArrayList<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
      for (int i = 0; i < 40; i++) {
        int n = i;
        results.add(pool.submit(() -> store.write(w -> {
          w.append(draft("test.event", null, n));
          if (n % 5 == 0) {
            throw new IllegalStateException("refused " + n);
          }
          return null;
        })));
      }
    }
    int failed = 0;
    for (Future<?> result : results) {
      try {
        result.get();
      } catch (java.util.concurrent.ExecutionException e) {
        assertThat(e.getCause()).hasMessageStartingWith("refused");
        failed++;
      }
    }
    assertThat(failed).isEqualTo(8);
    List<Event> stored = store.eventsAfter(0, 100);
    assertThat(stored).extracting(Event::seq).containsExactlyElementsOf(
        java.util.stream.LongStream.rangeClosed(1, 32).boxed().toList());
    assertThat(stored).allSatisfy(e -> assertThat(e.data().path("n").asInt() % 5).isNotZero());
    assertThat(published).extracting(Event::seq).isSorted().hasSize(32);
  }

  @Test
  void appendsFromManyThreadsAreAllStoredOnceInOneOrder() throws Exception {
    try (ExecutorService pool = Executors.newFixedThreadPool(8)) {
      List<Future<Event>> appends = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        int n = i;
        appends.add(pool.submit(() -> store.append(draft("test.event", null, n))));
      }
      for (Future<Event> f : appends) {
        f.get();
      }
    }
    List<Event> stored = store.eventsAfter(0, 1000);
    assertThat(stored).hasSize(400);
    assertThat(stored).extracting(Event::seq).containsExactlyElementsOf(
        java.util.stream.LongStream.rangeClosed(1, 400).boxed().toList());
    assertThat(stored).extracting(e -> e.data().path("n").asInt()).doesNotHaveDuplicates();
    assertThat(published).extracting(Event::seq).containsExactlyElementsOf(stored.stream().map(Event::seq).toList());
  }

  @Test
  void turnsQueueDecisionsRulesAndSettingsHashes() {
    long p = project("web").id();
    long t = task(p, "a", List.of(), List.of()).id();
    Turn turn = store.write(w -> w.runner().insertTurn(t, 1, "claude", true, Actor.USER, w.now()));
    store.write(w -> {
      w.runner().setTurnSession(turn.id(), "session-1");
      w.runner().setTurnIdle(turn.id(), true);
      w.runner().enqueue(t, "first", null, Actor.USER, w.now());
      w.runner().enqueue(t, "second", "codex", Actor.USER, w.now());
      w.runner().insertRule(p, "Bash", "npm test", Actor.USER, w.now());
      w.runner().insertRule(p, "Bash", "npm test", Actor.USER, w.now());
      w.runner().putSettingsHash(p, "claude", ".claude/settings.json", "aa", w.now());
      w.runner().putSettingsHash(p, "claude", ".claude/settings.json", "bb", w.now());
      return null;
    });
    Turn active = store.read(r -> r.runner().activeTurn(t)).orElseThrow();
    assertThat(active.sessionId()).isEqualTo("session-1");
    assertThat(active.unattended()).isTrue();
    assertThat(list(r -> r.runner().activeTurns())).extracting(Turn::id).containsExactly(turn.id());
    assertThat(store.write(w -> w.runner().dequeue(t)).orElseThrow().message()).isEqualTo("first");
    assertThat(list(r -> r.runner().queue(t))).extracting(q -> q.message() + "/" + q.driver()).containsExactly("second/codex");
    assertThat(list(r -> r.runner().rules(p))).hasSize(1);
    assertThat(map(r -> r.runner().settingsHashes(p, "claude"))).containsExactly(java.util.Map.entry(".claude/settings.json", "bb"));
    var decision = store.write(w -> w.runner().insertDecision("permission", p, t, turn.id(), "Run npm test?",
        JsonNodeFactory.instance.objectNode().put("tool", "Bash"), List.of("allow", "deny"), w.now()));
    assertThat(map(r -> r.runner().pendingCounts())).containsEntry(p, 1);
    store.write(w -> {
      w.runner().closeDecision(decision.id(), "answered", "allow", null, Actor.USER, w.now());
      w.runner().endTurn(turn.id(), TurnStatus.COMPLETED, null, w.now());
      return null;
    });
    assertThat(list(r -> r.runner().decisions(true, p, null, 10))).isEmpty();
    assertThat(one(r -> r.runner().decision(decision.id())).orElseThrow().answer()).isEqualTo("allow");
    assertThat(one(r -> r.runner().activeTurn(t))).isEmpty();
    assertThat(list(r -> r.runner().turns(t, 10))).extracting(Turn::status).containsExactly(TurnStatus.COMPLETED);
  }

  @Test
  void aTurnsEventsAreFoundByTheTurnNumberInTheirData() {
    long p = project("web").id();
    long t = task(p, "a", List.of(), List.of()).id();
    for (int turn = 1; turn <= 3; turn++) {
      ObjectNode data = JsonNodeFactory.instance.objectNode().put("turn", turn).put("text", "hello " + turn);
      store.append(new EventDraft("turn.message", Actor.USER, p, t, data));
      store.append(new EventDraft("task.updated", Actor.USER, p, t, data));
    }
    List<Event> second = store.read(r -> r.runner().turnEvents(t, 2, List.of("turn.message"), 10));
    assertThat(second).extracting(e -> e.data().path("text").asText()).containsExactly("hello 2");
    assertThat(list(r -> r.runner().taskEvents(t, 0, Long.MAX_VALUE, 10, true))).hasSize(3);
    assertThat(store.taskEventsAfter(t, 0, 10)).hasSize(6);
  }

  @Test
  void extensionRecordsArePutInsertedOnceListedByLiteralPrefixAndDeleted() {
    var value = JsonNodeFactory.instance.objectNode().put("path", "/w/1");
    store.write(w -> {
      w.extensions().putRecord("workspace", "task/1", value, w.now());
      w.extensions().putRecord("workspace", "task/10", value, w.now());
      w.extensions().putRecord("workspace", "task_1", value, w.now());
      w.extensions().putRecord("workspace", "Task/2", value, w.now());
      return null;
    });
    assertThat(wrote(w -> w.extensions().insertRecord("workspace", "task/1", value, w.now()))).isFalse();
    assertThat(list(r -> r.extensions().records("workspace", "task/", 10)))
        .extracting(x -> x.key()).containsExactly("task/1", "task/10");
    assertThat(list(r -> r.extensions().records("workspace", "", 10)))
        .extracting(x -> x.key()).containsExactly("Task/2", "task/1", "task/10", "task_1");
    assertThat(wrote(w -> w.extensions().deleteRecord("workspace", "task/1"))).isTrue();
    assertThat(one(r -> r.extensions().record("workspace", "task/1"))).isEmpty();
  }

  @Test
  void runbooksAndSchedulesAreNamedIgnoringCaseAndEachFiringIsClaimedOnce() {
    long p = project("web").id();
    Runbook runbook = store.write(w -> w.schedules().insertRunbook(new Runbook(0, p, "Nightly", "triage", null, null, null,
        Priority.NORMAL, List.of("ops"), true, Actor.USER, w.now(), w.now())));
    Schedule schedule = store.write(w -> w.schedules().insertSchedule(new Schedule(0, p, "Every night", runbook.id(), null,
        "FREQ=DAILY", "UTC", MissedPolicy.SKIP, OverlapPolicy.SKIP, false, T0.plusSeconds(60), Actor.USER, w.now(), w.now())));
    assertThat(one(r -> r.schedules().runbookNamed(p, "NIGHTLY"))).map(Runbook::id).contains(runbook.id());
    assertThat(one(r -> r.schedules().scheduleNamed(p, "every NIGHT"))).map(Schedule::id).contains(schedule.id());
    assertThat(list(r -> r.schedules().due(T0.plusSeconds(60), 10))).extracting(Schedule::id).containsExactly(schedule.id());
    assertThat(list(r -> r.schedules().due(T0.plusSeconds(59), 10))).isEmpty();
    ScheduleRun run = new ScheduleRun(schedule.id(), T0.plusSeconds(60), "pending", null, null, null, T0.plusSeconds(61), null);
    assertThat(wrote(w -> w.schedules().claim(run))).isTrue();
    assertThat(wrote(w -> w.schedules().claim(run))).isFalse();
    assertThat(list(r -> r.schedules().openRuns(schedule.id()))).hasSize(1);
  }

  @Test
  void retentionSeesTerminalTasksEventsAndDeletesThemKeepingTheRest() {
    long p = project("web").id();
    Task done = task(p, "done", List.of(), List.of());
    Task open = task(p, "open", List.of(), List.of());
    store.append(draft("task.note", done.id(), 1));
    store.append(draft("task.note", done.id(), 2));
    store.append(draft("task.note", open.id(), 3));
    store.write(w -> {
      Task t = w.task(done.id()).orElseThrow();
      w.updateTask(new Task(t.id(), p, t.title(), t.description(), TaskStatus.DONE, t.priority(), t.tags(), t.blockedBy(),
          false, null, null, null, false, t.createdBy(), t.createdAt(), w.now()));
      return null;
    });
    var facts = store.read(r -> r.retention().terminalTasks());
    assertThat(facts).singleElement().satisfies(f -> {
      assertThat(f.task()).isEqualTo(done.id());
      assertThat(f.events()).isEqualTo(2);
      assertThat(f.firstSeq()).isEqualTo(1);
      assertThat(f.lastSeq()).isEqualTo(2);
      assertThat(f.bytes()).isPositive();
      assertThat(f.liveTurn()).isFalse();
    });
    assertThat(changed(w -> w.retention().deleteTaskEvents(done.id(), 2))).isEqualTo(2);
    assertThat(store.eventsAfter(0, 10)).extracting(Event::seq).containsExactly(3L);
    assertThat(store.compact().fileBytesAfter()).isPositive();
    assertThat(text(r -> r.retention().autoVacuum())).isIn("incremental", "autovacuum");
    // a pruned database never hands out a sequence number again
    assertThat(store.append(draft("task.note", open.id(), 4)).seq()).isEqualTo(4);
  }

  @Test
  void workersRegisterBeatAndLeave() {
    Worker first = new Worker("w-1", "build-1", 101, null, T0, T0);
    Worker second = new Worker("w-2", "build-2", 202, "http://10.0.0.2:7420", T0.plusSeconds(1), T0.plusSeconds(1));
    store.write(w -> {
      w.putWorker(first);
      w.putWorker(second);
      return null;
    });
    assertThat(wrote(w -> w.beat("w-1", "http://10.0.0.1:7420", T0.plusSeconds(5)))).isTrue();
    assertThat(wrote(w -> w.beat("w-2", null, T0.plusSeconds(6)))).isTrue();
    assertThat(wrote(w -> w.beat("w-gone", null, T0.plusSeconds(6)))).isFalse();
    assertThat(first.lost(T0.plusSeconds(29))).isFalse();
    assertThat(first.lost(T0.plusSeconds(30))).as("silent for Worker.LOST_AFTER").isTrue();
    assertThat(list(StoreReader::workers)).containsExactly(
        new Worker("w-1", "build-1", 101, "http://10.0.0.1:7420", T0, T0.plusSeconds(5)),
        new Worker("w-2", "build-2", 202, "http://10.0.0.2:7420", T0.plusSeconds(1), T0.plusSeconds(6)));
    store.write(w -> {
      w.removeWorker("w-1");
      return null;
    });
    assertThat(list(StoreReader::workers)).extracting(Worker::id).containsExactly("w-2");
  }

  @Test
  void whatWasCommittedIsThereAfterReopening() {
    long p = project("web").id();
    task(p, "kept", List.of("x"), List.of());
    store.append(draft("test.event", null, 1));
    store.close();
    store = reopen(clock, sink);
    assertThat(store.read(StoreReader::projects)).extracting(Project::name).containsExactly("web");
    assertThat(list(r -> r.tasks(TaskQuery.inProject(p)))).extracting(Task::title).containsExactly("kept");
    assertThat(store.append(draft("test.event", null, 2)).seq()).isEqualTo(2);
    assertThat(store.lastSeq()).isEqualTo(2);
  }

  @Test
  void aClosedStoreRefusesWork() {
    store.close();
    assertThatThrownBy(() -> store.read(StoreReader::projects)).hasMessageContaining("closed");
    assertThatThrownBy(() -> store.append(draft("x", null, 1))).hasMessageContaining("closed");
    store = reopen(clock, sink); // for @AfterEach
  }

  @Test
  void aReadSeesOneSnapshotWhileWritesCommit() throws Exception {
    long p = project("web").id();
    List<Integer> counts = Collections.synchronizedList(new ArrayList<>());
    store.read(r -> {
      counts.add(r.tasks(TaskQuery.inProject(p)).size());
      task(p, "written meanwhile", List.of(), List.of());
      counts.add(r.tasks(TaskQuery.inProject(p)).size());
      return null;
    });
    assertThat(counts).containsExactly(0, 0);
    assertThat(list(r -> r.tasks(TaskQuery.inProject(p)))).hasSize(1);
  }
}
