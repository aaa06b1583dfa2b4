package dev.roundhouse.hub.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import dev.roundhouse.hub.testing.Waits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The boot-time reaper over stored records, with real processes standing in for a crashed hub's. */
class ProcessReaperTest {
  @TempDir Path dir;
  private Process bystander;

  @AfterEach
  void killBystander() {
    if (bystander != null) {
      bystander.destroyForcibly();
      bystander.onExit().join();
    }
  }

  @Test
  void leftoversOfACrashedHubAreReapedEscapedDescendantsIncluded() {
    GroupSpawner.Spawned spawned = GroupSpawner.spawn("service:web", List.of("/bin/sh", "-c",
        "sleep 1000 & setsid sleep 1000 & wait"), dir, Map.of(), Clock.systemUTC());
    ProcessRecord record = spawned.record();
    // Only the record survives the "crash": the reaper works from it alone.
    List<Long> before = awaitMembers(record, 3);

    List<ReapResult> results = ProcessReaper.reap(List.of(record), Duration.ofMillis(500));

    assertThat(results).singleElement().satisfies(result -> {
      assertThat(result.outcome()).isEqualTo(ReapResult.Outcome.KILLED);
      assertThat(result.killed()).containsExactlyInAnyOrderElementsOf(before);
    });
    assertThat(before).noneMatch(Census::alive);
    spawned.process().onExit().join();
  }

  @Test
  void aRecycledPidWithAnotherStartTimeIsNotKilled() throws Exception {
    bystander = new ProcessBuilder("sleep", "1000").start();
    long pid = bystander.pid();
    ProcFs.Stat stat = ProcFs.stat(pid).orElseThrow();
    ProcessRecord stale = new ProcessRecord("service:web", pid, pid, stat.startTicks() - 1, ProcFs.bootId(),
        ProcFs.cmdline(pid), "not-its-run", Instant.now());

    List<ReapResult> results = ProcessReaper.reap(List.of(stale), Duration.ofMillis(100));

    assertThat(results.get(0).outcome()).isEqualTo(ReapResult.Outcome.RECYCLED);
    assertThat(results.get(0).message()).contains("now belongs to another process");
    assertThat(bystander.isAlive()).isTrue();
  }

  @Test
  void aPidWithTheSameStartTimeButAnotherCommandAndNoMarkerIsNotKilled() throws Exception {
    bystander = new ProcessBuilder("sleep", "1000").start();
    long pid = bystander.pid();
    ProcessRecord record = new ProcessRecord("service:web", pid, pid, ProcFs.stat(pid).orElseThrow().startTicks(),
        ProcFs.bootId(), List.of("python3", "-m", "http.server"), "not-its-run", Instant.now());

    assertThat(ProcessReaper.stillRunning(record)).isFalse();
    assertThat(ProcessReaper.reap(List.of(record), Duration.ofMillis(100)).get(0).outcome())
        .isEqualTo(ReapResult.Outcome.RECYCLED);
    assertThat(bystander.isAlive()).isTrue();
  }

  @Test
  void aRecordFromAnEarlierBootIsGone() {
    ProcessRecord old = new ProcessRecord("service:web", 1, 1, 5, "another-boot", List.of("init"), "x", Instant.now());

    assertThat(ProcessReaper.reap(List.of(old), Duration.ofMillis(100)).get(0).outcome())
        .isEqualTo(ReapResult.Outcome.GONE);
  }

  private static List<Long> awaitMembers(ProcessRecord record, int count) {
    ProcessGroup group = new ProcessGroup(record, true);
    Waits.until(count + " processes", Duration.ofSeconds(10), () -> group.members().size() == count);
    return group.members().stream().map(ProcFs.Stat::pid).toList();
  }
}
