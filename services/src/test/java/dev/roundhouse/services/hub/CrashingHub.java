package dev.roundhouse.services.hub;

import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.InProcessHub;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.testing.HttpTestClient;
import java.nio.file.Path;
import java.util.List;

/**
 * A hub in a JVM of its own, for {@link HubCrashRecoveryTest} to SIGKILL: opens the hub at {@code args[0]} with the
 * services extension (port base {@code args[1]}), declares and starts two services, prints
 * {@code UP <pid of kept> <pid of dropped>} and waits to be killed.
 */
public final class CrashingHub {
  private CrashingHub() {}

  public static void main(String[] args) {
    ChildHub.main(() -> run(args));
  }

  private static void run(String[] args) throws Exception {
    Path home = Path.of(args[0]);
    InProcessHub hub = Hub.open(HubConfig.forHome(home), List.of(),
        List.of(new ServicesExtension(ServicesHubSupport.settings(Integer.parseInt(args[1])))));
    ServicesHubSupport.project(hub, "web", home.resolve("web"));
    call(hub, "service_define", HttpTestClient.map("project", "web", "name", "kept",
        "command", "python3 -m http.server $PORT --bind 127.0.0.1", "restart", HttpTestClient.map("mode", "always"),
        "readiness", HttpTestClient.map("check", "port")));
    call(hub, "service_define", HttpTestClient.map("project", "web", "name", "dropped",
        "command", "sh -c 'sleep 600 & sleep 600; wait'"));
    long kept = call(hub, "service_start", HttpTestClient.map("project", "web", "service", "kept", "wait_seconds", 30)).path("pid").asLong();
    long dropped = call(hub, "service_start", HttpTestClient.map("project", "web", "service", "dropped", "wait_seconds", 30)).path("pid").asLong();
    System.out.println("UP " + kept + " " + dropped);
    System.out.flush();
    new java.util.concurrent.CountDownLatch(1).await(); // parked until the test SIGKILLs this JVM
  }

  private static com.fasterxml.jackson.databind.JsonNode call(InProcessHub hub, String name, Object input) {
    return hub.operations().invoke(name, Actor.USER, Json.tree(input));
  }
}
