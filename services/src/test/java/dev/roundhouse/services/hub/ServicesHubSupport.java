package dev.roundhouse.services.hub;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.testing.HttpTestClient;
import dev.roundhouse.hub.testing.ShellEnvironment;
import dev.roundhouse.services.PortPlan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/** Shared pieces of the services hub tests: settings on a port range of their own, projects, /proc checks. */
final class ServicesHubSupport {
  private ServicesHubSupport() {}

  /**
   * Settings whose port plan starts at a random base in 40000-44999 (away from the default range and from other
   * test runs on a shared machine), with a short stop grace.
   */
  static ServicesSettings settings() {
    return settings(freeBase());
  }

  static ServicesSettings settings(int base) {
    return ServicesSettings.defaults().withPorts(new PortPlan(base, 20, 10)).withStopGrace(Duration.ofSeconds(2))
        .withBaseEnv(ShellEnvironment.withEmptyHome());
  }

  static int freeBase() {
    for (int attempt = 0; attempt < 50; attempt++) {
      int base = 40_000 + ThreadLocalRandom.current().nextInt(500) * 10;
      boolean free = true;
      for (int port = base; port < base + 200 && free; port += 10) {
        try (ServerSocket socket = new ServerSocket(port)) {
          socket.setReuseAddress(true);
        } catch (IOException e) {
          free = false;
        }
      }
      if (free) {
        return base;
      }
    }
    throw new AssertionError("no free port range for the test");
  }

  static Project project(dev.roundhouse.hub.Hub hub, String name, Path folder) {
    try {
      Files.createDirectories(folder);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return hub.operations().call("project_create", Actor.USER,
        new BoardApi.ProjectCreate(name, folder.toString(), null, null), Project.class);
  }

  static JsonNode define(HttpTestClient http, String project, String name, String command, Object restart, Object readiness) {
    return http.op("service_define", HttpTestClient.map("project", project, "name", name, "command", command,
        "restart", restart, "readiness", readiness));
  }

  static boolean alive(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      String state = stat.substring(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
      return !state.equals("Z") && !state.equals("X");
    } catch (IOException e) {
      return false;
    }
  }
}
