package dev.roundhouse.services.hub;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.process.Containment;
import dev.roundhouse.hub.testing.EventRecorder;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hub SIGKILLed with two services up (in a JVM of its own, {@link CrashingHub}): the next boot on the same home
 * reaps what was left and restores the service whose policy restarts it; then a clean restart stops and restores
 * it again; after the last close nothing is left.
 */
class HubCrashRecoveryTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path home;

  @Test
  void nextBootReapsLeftoversAndRestoresPerPolicyAndACleanRestartRestoresToo() throws Exception {
    int base = ServicesHubSupport.freeBase();
    long kept;
    long dropped;
    try (ChildHub crashing = ChildHub.start(CrashingHub.class, home.resolve("crashing-hub.log"), home.toString(),
        String.valueOf(base))) {
      String[] up = crashing.awaitUp();
      kept = Long.parseLong(up[0]);
      dropped = Long.parseLong(up[1]);
    } // SIGKILL
    // Each service leads its group as the hub's direct child, started with a parent-death signal where setpriv has one:
    // the kernel ends it with the hub (what it started waits for the next boot: ContainedProcessesTest).
    if (Containment.detect(home, Clock.systemUTC()).mechanisms().parentDeath()) {
      Waits.until("the leaders die with the hub", WAIT,
          () -> !ServicesHubSupport.alive(kept) && !ServicesHubSupport.alive(dropped));
    }

    long restoredPid;
    try (TestHub hub = reopen(base); EventRecorder events = new EventRecorder(hub.hub())) {
      assertThat(ServicesHubSupport.alive(kept)).as("reaped at boot").isFalse();
      assertThat(ServicesHubSupport.alive(dropped)).as("reaped at boot").isFalse();
      JsonNode restored = hub.http().op("service_start", map("project", "web", "service", "kept", "wait_seconds", 30));
      assertThat(restored.path("status").asText()).isEqualTo("ready");
      restoredPid = restored.path("pid").asLong();
      assertThat(restoredPid).isNotEqualTo(kept);
      JsonNode list = hub.http().op("service_list", map("project", "web"));
      assertThat(list.path("services").findValuesAsText("status")).containsExactlyInAnyOrder("stopped", "ready");
    }
    assertThat(ServicesHubSupport.alive(restoredPid)).as("a clean close stops every service").isFalse();

    try (TestHub hub = reopen(base)) {
      JsonNode kept2 = awaitReady(hub);
      assertThat(kept2.path("pid").asLong()).isNotEqualTo(restoredPid);
      restoredPid = kept2.path("pid").asLong();
    }
    assertThat(ServicesHubSupport.alive(restoredPid)).isFalse();
  }

  private TestHub reopen(int base) {
    return TestHub.withExtensions(config -> HubConfig.forHome(home), List.of(),
        List.of(new ServicesExtension(ServicesHubSupport.settings(base))));
  }

  private static JsonNode awaitReady(TestHub hub) {
    Waits.until("kept is restored", WAIT, () -> hub.http().op("service_list", map("project", "web")).path("services")
        .findValuesAsText("status").contains("ready"));
    for (JsonNode service : hub.http().op("service_list", map("project", "web")).path("services")) {
      if (service.path("state").path("name").asText().equals("kept")) {
        return service.path("state");
      }
    }
    throw new AssertionError("no service kept");
  }
}
