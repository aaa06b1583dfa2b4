package dev.roundhouse.services;

import dev.roundhouse.hub.process.ProcFs;
import dev.roundhouse.hub.process.ProcessRecord;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real services started and stopped: nothing may be left behind, counted from /proc. */
class ServiceLifecycleTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;
  private final RecordingJournal journal = new RecordingJournal();
  private ServiceSupervisor supervisor;

  private ServiceSupervisor supervisor(int port) {
    supervisor = ServiceSupervisor.builder("web", port).journal(journal).stopGrace(Duration.ofMillis(500)).build();
    return supervisor;
  }

  @AfterEach
  void nothingLeftBehind() {
    if (supervisor != null) {
      supervisor.close();
    }
    assertThat(ProcessCensus.alive(journal.runIds())).as("processes still carrying a run id").isEmpty();
    assertThat(ProcessCensus.zombieChildren()).as("unreaped children of the JVM").isEmpty();
    assertThat(journal.live.records()).as("records not erased").isEmpty();
  }

  @Test
  void httpServerStartsReadyOnItsPortAndStopsLeavingNothing() throws Exception {
    int port = Ports.free();
    ServiceSupervisor services = supervisor(port);
    services.define(ServiceDefinition.shell("http", dir.toString(), "python3 -m http.server $PORT --bind 127.0.0.1")
        .withReadiness(Readiness.projectPort().withTimeout(Duration.ofSeconds(20))));

    services.start("http");
    ServiceState ready = services.await("http", Set.of(ServiceStatus.READY, ServiceStatus.FAILED), WAIT);

    assertThat(ready.status()).as(ready.message()).isEqualTo(ServiceStatus.READY);
    assertThat(ready.pid()).isNotNull();
    // $PORT was expanded by the engine: no shell between us and the program.
    assertThat(String.join(" ", ProcFs.cmdline(ready.pid()))).doesNotStartWith("/bin/sh").contains("http.server");
    assertThat(ProcFs.stat(ready.pid()).orElseThrow().pgid()).isEqualTo(ready.pid());
    HttpResponse<String> response = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);

    ServiceState stopped = services.stop("http");

    assertThat(stopped.status()).isEqualTo(ServiceStatus.STOPPED);
    assertThat(ProcessCensus.inGroups(journal.pgids())).isEmpty();
    assertThat(PortProbe.free(port)).isTrue();
  }

  @Test
  void grandchildrenThatIgnoreSigtermOrLeaveTheGroupAreGoneAfterStop() {
    ServiceSupervisor services = supervisor(Ports.free());
    String script = "trap '' TERM; sh -c \"trap '' TERM; sleep 1000\" & setsid sleep 1000 & echo forked; wait";
    services.define(ServiceDefinition.of("stubborn", dir.toString(), List.of("/bin/sh", "-c", script))
        .withReadiness(Readiness.logLine("forked")));
    services.start("stubborn");
    services.await("stubborn", Set.of(ServiceStatus.READY), WAIT);
    long pgid = journal.everRecorded.get(0).pgid();
    // The shell, the sleep that ignores SIGTERM, and the sleep that left for a session of its own.
    List<Long> before = Eventually.await("a descendant outside the group", WAIT,
        () -> ProcessCensus.alive(journal.runIds()),
        pids -> pids.size() >= 3 && pids.stream().anyMatch(pid -> ProcFs.stat(pid).map(s -> s.pgid() != pgid).orElse(false)));

    services.stop("stubborn");

    assertThat(before).noneMatch(ProcessCensus::alive);
  }

  @Test
  void startStopCyclesLeaveNoZombiesAndNoOrphans() {
    int cycles = Integer.getInteger("roundhouse.services.cycles", 200);
    ServiceSupervisor services = supervisor(Ports.free());
    services.define(ServiceDefinition.of("cycle", dir.toString(), List.of("/bin/sh", "-c", "sleep 1000 & wait")));
    for (int i = 0; i < cycles; i++) {
      services.start("cycle");
      services.await("cycle", Set.of(ServiceStatus.READY), WAIT);
      assertThat(services.stop("cycle").status()).isEqualTo(ServiceStatus.STOPPED);
    }

    assertThat(journal.everRecorded).hasSize(cycles);
    assertThat(ProcessCensus.alive(journal.runIds())).as("orphans").isEmpty();
    assertThat(ProcessCensus.inGroups(journal.pgids())).as("live processes in the groups")
        .allMatch(ProcFs.Stat::zombie);
    assertThat(ProcessCensus.zombieChildren()).as("zombies the JVM should have reaped").isEmpty();
    // A sleep whose shell died first is reaped by init; only an init that never reaps keeps its zombie.
    if (ProcessCensus.initReapsOrphans()) {
      assertThat(ProcessCensus.awaitNoneInGroups(journal.pgids(), WAIT)).as("zombies in the groups").isEmpty();
    } else {
      System.out.println("init (pid 1) does not reap orphans here; zombies it holds from " + cycles + " cycles: "
          + ProcessCensus.zombiesLeftToInit(journal.pgids()).size());
    }
  }

  @Test
  void logsKeepStdoutAndStderrInOrderOfEachStream() {
    ServiceSupervisor services = supervisor(Ports.free());
    services.define(ServiceDefinition.of("talk", dir.toString(), List.of("/bin/sh", "-c", "echo out; echo err >&2; exit 3")));
    services.start("talk");

    ServiceState failed = services.await("talk", Set.of(ServiceStatus.FAILED), WAIT);

    assertThat(failed.exitCode()).isEqualTo(3);
    assertThat(failed.message()).isEqualTo("exited with code 3");
    LogChunk chunk = services.logs("talk", 0, 100);
    assertThat(chunk.lines()).extracting(LogLine::stream, LogLine::text).containsExactlyInAnyOrder(
        org.assertj.core.groups.Tuple.tuple(LogLine.Stream.STDOUT, "out"),
        org.assertj.core.groups.Tuple.tuple(LogLine.Stream.STDERR, "err"));
    assertThat(chunk.nextOffset()).isEqualTo(2);
  }

  @Test
  void setupRunsToCompletionBeforeTheDevServiceThatNeedsIt() {
    ServiceSupervisor services = supervisor(Ports.free());
    services.define(ServiceDefinition.of("migrate", dir.toString(), List.of("/bin/sh", "-c", "echo migrated > state"))
        .withKind(ServiceKind.SETUP));
    services.define(ServiceDefinition.of("app", dir.toString(), List.of("/bin/sh", "-c", "cat state; exec sleep 1000"))
        .withDependsOn(List.of("migrate")).withReadiness(Readiness.logLine("^migrated$")));

    services.startAll();

    assertThat(services.await("app", Set.of(ServiceStatus.READY, ServiceStatus.FAILED), WAIT).status())
        .isEqualTo(ServiceStatus.READY);
    assertThat(services.state("migrate").status()).isEqualTo(ServiceStatus.EXITED);
  }

  @Test
  void aFailedSetupFailsItsDependantWithoutStartingIt() {
    ServiceSupervisor services = supervisor(Ports.free());
    services.define(ServiceDefinition.of("migrate", dir.toString(), List.of("/bin/sh", "-c", "exit 4"))
        .withKind(ServiceKind.SETUP));
    services.define(ServiceDefinition.of("app", dir.toString(), List.of("sleep", "1000"))
        .withDependsOn(List.of("migrate")));

    services.start("app");
    ServiceState app = services.await("app", Set.of(ServiceStatus.FAILED, ServiceStatus.READY), WAIT);

    assertThat(app.status()).isEqualTo(ServiceStatus.FAILED);
    assertThat(app.message()).isEqualTo("dependency migrate is failed: exited with code 4");
    assertThat(journal.everRecorded).extracting(ProcessRecord::owner).containsExactly("service:migrate");
  }

  @Test
  void aServiceNotReadyInTimeIsStoppedAndFails() {
    ServiceSupervisor services = supervisor(Ports.free());
    services.define(ServiceDefinition.of("mute", dir.toString(), List.of("sleep", "1000"))
        .withReadiness(Readiness.logLine("never printed").withTimeout(Duration.ofMillis(300))));

    services.start("mute");
    ServiceState failed = services.await("mute", Set.of(ServiceStatus.FAILED), WAIT);

    assertThat(failed.message()).isEqualTo("not ready within 300 ms");
  }
}
