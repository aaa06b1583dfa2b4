package dev.roundhouse.services.hub;

import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.InProcessHub;
import dev.roundhouse.hub.http.HubServer;
import dev.roundhouse.hub.testing.HttpTestClient;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A hub in a JVM of its own, with its HTTP server, for {@link ContainedProcessesTest} to SIGKILL: opens the hub at
 * {@code args[0]} with the services extension (port base {@code args[1]}), starts the {@link Escapers} service and
 * terminal (pids in {@code args[2]} and {@code args[3]}, {@code env -i} escapes when {@code args[4]} is true), prints
 * {@code UP <leaders> <all>} (JSON lists of pids seen alive) and waits to be killed.
 */
public final class ContainedCrashingHub {
  private ContainedCrashingHub() {}

  public static void main(String[] args) {
    ChildHub.main(() -> run(args));
  }

  private static void run(String[] args) throws Exception {
    Path home = Path.of(args[0]);
    boolean cleared = Boolean.parseBoolean(args[4]);
    InProcessHub hub = Hub.open(HubConfig.forHome(home).withPort(0), List.of(),
        List.of(new ServicesExtension(ServicesHubSupport.settings(Integer.parseInt(args[1])))));
    HubServer server = HubServer.start(hub);
    ServicesHubSupport.project(hub, "web", home.resolve("web"));
    HttpTestClient http = new HttpTestClient(server.url(), hub.token());
    int count = cleared ? 4 : 3;
    Escapers.startService(http, "web", Path.of(args[2]), cleared);
    List<Escapers.Seen> service = Escapers.await(Path.of(args[2]), count);
    Escapers.openTerminal(HttpClient.newHttpClient(), server.url(), hub.token(), "web", Path.of(args[3]), cleared);
    List<Escapers.Seen> terminal = Escapers.await(Path.of(args[3]), count);
    List<Escapers.Seen> all = new ArrayList<>(service);
    all.addAll(terminal);
    System.out.println("UP " + Escapers.save(List.of(service.getFirst(), terminal.getFirst())) + " " + Escapers.save(all));
    System.out.flush();
    new java.util.concurrent.CountDownLatch(1).await(); // parked until the test SIGKILLs this JVM
  }
}
