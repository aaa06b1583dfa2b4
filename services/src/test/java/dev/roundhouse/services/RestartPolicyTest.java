package dev.roundhouse.services;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Restart policies over a real failing process, with time driven by hand: no test waits out a backoff. */
class RestartPolicyTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;
  private final ManualScheduler time = new ManualScheduler();
  private final RecordingJournal journal = new RecordingJournal();
  private ServiceSupervisor services;

  private ServiceSupervisor services() {
    services = ServiceSupervisor.builder("web", Ports.free()).clock(time).scheduler(time).journal(journal)
        .stopGrace(Duration.ofMillis(500)).build();
    return services;
  }

  @AfterEach
  void close() {
    if (services != null) {
      services.close();
    }
    assertThat(ProcessCensus.alive(journal.runIds())).isEmpty();
  }

  @Test
  void onFailureBacksOffExponentiallyUpToTheMaximum() {
    ServiceSupervisor supervisor = services();
    supervisor.define(ServiceDefinition.of("crash", dir.toString(), List.of("/bin/sh", "-c", "exit 3"))
        .withRestart(RestartPolicy.onFailure().withBackoff(Duration.ofSeconds(1), Duration.ofSeconds(4))));

    supervisor.start("crash");
    List<String> messages = new java.util.ArrayList<>();
    for (int attempt = 0; attempt < 4; attempt++) {
      ServiceState backoff = supervisor.await("crash", Set.of(ServiceStatus.BACKOFF), WAIT);
      messages.add(backoff.message());
      assertThat(backoff.restarts()).isEqualTo(attempt);
      time.advance(time.pending().get(0));
    }

    assertThat(messages).containsExactly("exited with code 3; restarting in 1 s",
        "exited with code 3; restarting in 2 s", "exited with code 3; restarting in 4 s",
        "exited with code 3; restarting in 4 s");
  }

  @Test
  void stopCancelsAPendingRestart() {
    ServiceSupervisor supervisor = services();
    supervisor.define(ServiceDefinition.of("crash", dir.toString(), List.of("/bin/sh", "-c", "exit 1"))
        .withRestart(RestartPolicy.always()));
    supervisor.start("crash");
    supervisor.await("crash", Set.of(ServiceStatus.BACKOFF), WAIT);

    assertThat(supervisor.stop("crash").status()).isEqualTo(ServiceStatus.STOPPED);
    time.advance(Duration.ofMinutes(5));

    assertThat(supervisor.state("crash").status()).isEqualTo(ServiceStatus.STOPPED);
    assertThat(journal.everRecorded).hasSize(1);
  }

  @Test
  void aCleanExitIsNotRestartedOnFailureOnly() {
    ServiceSupervisor supervisor = services();
    supervisor.define(ServiceDefinition.of("once", dir.toString(), List.of("true")).withRestart(RestartPolicy.onFailure()));

    supervisor.start("once");

    assertThat(supervisor.await("once", Set.of(ServiceStatus.EXITED), WAIT).exitCode()).isZero();
    assertThat(time.pending()).isEmpty();
  }

  @Test
  void neverRestartsAFailure() {
    ServiceSupervisor supervisor = services();
    supervisor.define(ServiceDefinition.of("once", dir.toString(), List.of("false")));

    supervisor.start("once");

    assertThat(supervisor.await("once", Set.of(ServiceStatus.FAILED), WAIT).exitCode()).isEqualTo(1);
    assertThat(time.pending()).isEmpty();
  }

  @Test
  void backoffDoublesFromTheInitialDelayAndIsCapped() {
    RestartPolicy policy = RestartPolicy.always().withBackoff(Duration.ofSeconds(1), Duration.ofSeconds(30));
    assertThat(policy.backoff(1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(policy.backoff(5)).isEqualTo(Duration.ofSeconds(16));
    assertThat(policy.backoff(50)).isEqualTo(Duration.ofSeconds(30));
  }
}
