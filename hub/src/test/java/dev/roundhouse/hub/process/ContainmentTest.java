package dev.roundhouse.hub.process;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.testing.Waits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Scopes and the boot reaper with real processes: a leader, its child, and a grandchild that left the group
 * with {@code setsid}, both with a cgroup per scope (where this machine lets the hub make one) and without.
 */
class ContainmentTest {
  /** Three processes: the leader (exec'd into sleep), a child in its group, and a grandchild in a session of its own. */
  private static final String TREE = "sleep 1000 & setsid sleep 1000 & exec sleep 1000";

  @TempDir Path home;
  @TempDir Path dir;
  private final List<Process> started = new ArrayList<>();
  private final List<Containment> containments = new ArrayList<>();
  private final List<ProcessScope> scopes = new ArrayList<>();

  /** Even after a failed assertion: no process, cgroup or hub folder is left for the next test. */
  @AfterEach
  void cleanUp() {
    started.forEach(Process::destroyForcibly);
    scopes.forEach(ProcessScope::close);
    containments.forEach(Containment::close);
  }

  @ParameterizedTest(name = "cgroups {0}")
  @ValueSource(booleans = {true, false})
  void closingAScopeKillsASetsidGrandchildAndErasesItsRecords(boolean cgroups) throws IOException {
    Containment containment = containment(cgroups);
    ProcessJournal.InMemory journal = ProcessJournal.inMemory();
    ProcessScope scope = containment.open("turn:1", journal);
    Process leader = start(scope);
    List<Long> pids = Census.awaitRun(scope.runId(), 3);
    assertThat(journal.records()).singleElement().satisfies(record -> {
      assertThat(record.pid()).isEqualTo(leader.pid());
      // the leader's command line when it was recorded: the shell's, or already the program it execs (a busy
      // machine lets the shell run its last command before the spawner reads /proc; seen in CI)
      assertThat(record.cmdline()).isIn(List.of("/bin/sh", "-c", TREE), List.of("sleep", "1000"));
      assertThat(record.cgroup() != null).isEqualTo(cgroups && containment.mechanisms().cgroupDir().isPresent());
    });
    scope.cgroup().ifPresent(cgroup -> assertThat(Cgroups.members(cgroup)).containsExactlyInAnyOrderElementsOf(pids));

    scope.close();

    assertThat(pids).noneMatch(Census::alive);
    assertThat(journal.records()).isEmpty();
    scope.cgroup().ifPresent(cgroup -> assertThat(cgroup).doesNotExist());
  }

  @ParameterizedTest(name = "cgroups {0}")
  @ValueSource(booleans = {true, false})
  void theNextBootReapsWhatACrashedHubLeftFromItsRecords(boolean cgroups) throws IOException {
    ProcessJournal.InMemory journal = ProcessJournal.inMemory();
    ProcessScope scope = containment(cgroups).open("turn:2", journal);
    start(scope);
    List<Long> pids = Census.awaitRun(scope.runId(), 3);
    // The "crash": the scope is never closed; only its records are left.

    Containment.BootReap reap = containment(cgroups).reapLeftovers(journal.records(), Duration.ofMillis(500));

    assertThat(pids).noneMatch(Census::alive);
    assertThat(reap.killed()).containsAll(pids);
  }

  @Test
  void theNextBootReapsMarkedProcessesThatHaveNoRecord() throws IOException {
    ProcessScope scope = containment(false).open("turn:3", ProcessJournal.inMemory());
    start(scope);
    List<Long> pids = Census.awaitRun(scope.runId(), 3);

    Containment.BootReap reap = containment(false).reapLeftovers(List.of(), Duration.ofMillis(500));

    assertThat(pids).noneMatch(Census::alive);
    assertThat(reap.marked()).containsExactlyInAnyOrderElementsOf(pids);
  }

  @Test
  void aStoredRecordWhosePidNowBelongsToAnotherProcessLeavesThatProcessAlone() throws IOException {
    Process bystander = new ProcessBuilder("sleep", "1000").start();
    started.add(bystander);
    long pid = bystander.pid();
    ProcessRecord recycled = new ProcessRecord("turn:4", pid, pid, ProcFs.stat(pid).orElseThrow().startTicks() - 1,
        ProcFs.bootId(), ProcFs.cmdline(pid), "an-earlier-run", Instant.now());

    Containment.BootReap reap = containment(true).reapLeftovers(List.of(recycled), Duration.ofMillis(100));

    assertThat(reap.records()).singleElement().extracting(ReapResult::outcome).isEqualTo(ReapResult.Outcome.RECYCLED);
    assertThat(reap.killed()).doesNotContain(pid);
    assertThat(bystander.isAlive()).isTrue();
  }

  /**
   * PR_SET_PDEATHSIG fires when the thread that forked the child ends, not the process: a child a short-lived
   * thread forks itself dies with that thread; one started through a scope is forked on the spawner thread and
   * lives on.
   */
  @Test
  void aParentDeathSignalFollowsTheForkingThreadSoScopesForkOnALongLivedOne() throws Exception {
    Containment containment = containment(false);
    Assumptions.assumeTrue(containment.mechanisms().parentDeath(), containment.mechanisms().parentDeathNote());
    ProcessScope scope = containment.open("turn:5", ProcessJournal.inMemory());
    AtomicReference<Process> direct = new AtomicReference<>();
    AtomicReference<Process> scoped = new AtomicReference<>();
    Thread shortLived = Thread.ofPlatform().start(() -> {
      try {
        direct.set(new ProcessBuilder(Binaries.SETPRIV.orElseThrow(), "--pdeathsig", "KILL", "--", "sleep", "1000").start());
        scoped.set(scope.start(new ProcessBuilder("sleep", "1000")));
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    shortLived.join();
    started.add(direct.get());
    started.add(scoped.get());

    Waits.until("the directly forked child to die with its thread", Duration.ofSeconds(10), () -> !direct.get().isAlive());
    assertThat(scoped.get().isAlive()).as("the child forked on the spawner thread").isTrue();
    scope.close();
    assertThat(scoped.get().isAlive()).isFalse();
  }

  @Test
  void stopCyclesLeaveNothing() throws IOException {
    Containment containment = containment(true);
    int cycles = Integer.getInteger("roundhouse.stopCycles", 50);
    long began = System.nanoTime();
    long[] phases = new long[3];
    for (int i = 0; i < cycles; i++) {
      ProcessScope scope = containment.open("turn:" + i, ProcessJournal.inMemory());
      long t0 = System.nanoTime();
      start(scope);
      long t1 = System.nanoTime();
      Census.awaitRun(scope.runId(), 3);
      long t2 = System.nanoTime();
      scope.close();
      long t3 = System.nanoTime();
      phases[0] += t1 - t0;
      phases[1] += t2 - t1;
      phases[2] += t3 - t2;
      assertThat(Census.carrying(ProcessGroup.RUN_VARIABLE, scope.runId())).as("cycle %d", i).isEmpty();
    }
    long millis = (System.nanoTime() - began) / 1_000_000;
    System.out.printf("%d stop cycles (%s): %d ms, %.1f ms a cycle (start %.1f, census %.1f, close %.1f)%n", cycles,
        containment.mechanisms().summary(), millis, (double) millis / cycles, phases[0] / 1e6 / cycles,
        phases[1] / 1e6 / cycles, phases[2] / 1e6 / cycles);
    assertThat(Census.carrying(Containment.HUB_VARIABLE, containment.hubId())).isEmpty();
    containment.mechanisms().cgroupDir().ifPresent(hubDir -> assertThat(Cgroups.children(hubDir)).isEmpty());
  }

  private Containment containment(boolean cgroups) {
    Containment containment = Containment.detect(home, Clock.systemUTC(), cgroups);
    containments.add(containment);
    return containment;
  }

  private Process start(ProcessScope scope) throws IOException {
    Files.createDirectories(dir);
    Process process = scope.start(new ProcessBuilder("/bin/sh", "-c", TREE).directory(dir.toFile()));
    started.add(process);
    scopes.add(scope);
    return process;
  }
}
