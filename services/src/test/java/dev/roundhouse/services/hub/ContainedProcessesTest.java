package dev.roundhouse.services.hub;

import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.process.Containment;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Services and terminals start through the hub's containment (docs/processes.md): a service and a terminal whose
 * processes escape their group (a {@code setsid} grandchild, and where this machine gives the hub a cgroup, one that
 * also clears its environment) leave nothing after a stop, nor after a SIGKILL of a real hub process past its next
 * boot.
 */
class ContainedProcessesTest {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path home;

  /** Whether a hub of {@code home} gets a cgroup here: only then may a process clear its environment and still be caught. */
  private static boolean cgroups(Path home) {
    return Containment.detect(home, Clock.systemUTC()).mechanisms().cgroupDir().isPresent();
  }

  @Test
  void aServiceAndATerminalThatEscapeTheirGroupLeaveNothingAfterStop() {
    boolean cleared = cgroups(home.resolve("hub"));
    int count = cleared ? 4 : 3;
    // Not closed but shut down: close() waits for every open WebSocket, which a failed assertion leaves open.
    HttpClient client = HttpClient.newHttpClient();
    try (TestHub hub = TestHub.withExtensions(config -> HubConfig.forHome(home.resolve("hub")), List.of(),
        List.of(new ServicesExtension(ServicesHubSupport.settings())))) {
      ServicesHubSupport.project(hub.hub(), "web", home.resolve("web"));
      Escapers.startService(hub.http(), "web", home.resolve("service.pids"), cleared);
      List<Escapers.Seen> service = Escapers.await(home.resolve("service.pids"), count);
      assertThat(service).allMatch(Escapers.Seen::alive);

      hub.http().op("service_stop", map("project", "web", "service", "escaper"));

      assertThat(service).as("the service's processes after service_stop").noneMatch(Escapers.Seen::alive);

      WebSocket socket = Escapers.openTerminal(client, hub.server().url(), hub.hub().token(), "web",
          home.resolve("terminal.pids"), cleared);
      List<Escapers.Seen> terminal = Escapers.await(home.resolve("terminal.pids"), count);
      assertThat(terminal).allMatch(Escapers.Seen::alive);

      socket.sendClose(WebSocket.NORMAL_CLOSURE, "bye").orTimeout(WAIT.toSeconds(), TimeUnit.SECONDS).join();

      Waits.until("the terminal's processes are gone (" + terminal + ")", WAIT,
          () -> terminal.stream().noneMatch(Escapers.Seen::alive));
    } finally {
      client.shutdownNow();
    }
  }

  @Test
  void aSigkilledHubLeavesNoServiceOrTerminalProcessPastItsNextBoot() throws Exception {
    Path hubHome = home.resolve("hub");
    boolean cleared = cgroups(hubHome);
    Containment.Mechanisms mechanisms = Containment.detect(hubHome, Clock.systemUTC()).mechanisms();
    int base = ServicesHubSupport.freeBase();
    List<Escapers.Seen> leaders;
    List<Escapers.Seen> all;
    try (ChildHub crashing = ChildHub.start(ContainedCrashingHub.class, home.resolve("crashing-hub.log"),
        hubHome.toString(), String.valueOf(base), home.resolve("service.pids").toString(),
        home.resolve("terminal.pids").toString(), String.valueOf(cleared))) {
      String[] up = crashing.awaitUp();
      leaders = Escapers.load(up[0]);
      all = Escapers.load(up[1]);
    } // SIGKILL
    assertThat(all).hasSize(cleared ? 8 : 6);
    if (mechanisms.parentDeath()) {
      Waits.until("the kernel ends the service's and the terminal's leaders with the hub (parent-death signal): "
          + leaders, WAIT, () -> leaders.stream().noneMatch(Escapers.Seen::alive));
    }
    assertThat(all.stream().filter(Escapers.Seen::alive).toList())
        .as("grandchildren outlive the hub until its next boot").isNotEmpty();

    try (TestHub hub = TestHub.withExtensions(config -> HubConfig.forHome(hubHome), List.of(),
        List.of(new ServicesExtension(ServicesHubSupport.settings(base))))) {
      assertThat(all.stream().filter(Escapers.Seen::alive).toList()).as("left after the next boot").isEmpty();
      assertThat(hub.http().op("service_list", map("project", "web")).path("services").findValuesAsText("status"))
          .containsExactly("stopped");
    }
  }
}
