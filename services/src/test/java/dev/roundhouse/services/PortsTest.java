package dev.roundhouse.services;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PortsTest {
  @TempDir Path dir;

  @Test
  void aProjectsPortIsDeterministicFromItsNameAndTheBase() {
    PortPlan plan = PortPlan.defaults();

    int web = plan.portFor("web", Map.of());

    assertThat(web).isEqualTo(new PortPlan(21_000, 500, 10).portFor("web", Map.of()));
    assertThat(web).isBetween(21_000, 25_990);
    assertThat((web - 21_000) % 10).isZero();
    assertThat(new PortPlan(30_000, 500, 10).portFor("web", Map.of())).isEqualTo(web + 9_000);
    assertThat(plan.portFor("web", Map.of("web", 21_230))).as("a stored port is kept").isEqualTo(21_230);
  }

  @Test
  void aCollisionTakesTheNextFreeBlock() {
    PortPlan plan = new PortPlan(21_000, 3, 10);
    Map<String, Integer> assigned = new HashMap<>();
    assigned.put("a", plan.portFor("a", assigned));
    assigned.put("b", plan.portFor("b", assigned));
    assigned.put("c", plan.portFor("c", assigned));

    assertThat(assigned.values()).containsExactlyInAnyOrder(21_000, 21_010, 21_020);
    assertThatThrownBy(() -> plan.portFor("d", assigned)).isInstanceOf(ServiceException.class)
        .hasMessage("no free port block is left for project d: all 3 blocks from 21000 are assigned");
  }

  @Test
  void extraPortsStayInTheProjectsBlock() {
    PortPlan plan = PortPlan.defaults();

    assertThat(plan.extraPort(21_040, 1)).isEqualTo(21_041);
    assertThat(plan.extraPort(21_040, 9)).isEqualTo(21_049);
    assertThatThrownBy(() -> plan.extraPort(21_040, 10))
        .hasMessage("extra port 10 is out of range: a project has extra ports 1 to 9");
  }

  @Test
  void aPortHeldByAnUnmanagedProcessIsAReadableErrorNamingIt() throws Exception {
    int port = Ports.free();
    String script = "import socket,sys,time\ns=socket.socket()\ns.bind(('127.0.0.1'," + port + "))\ns.listen()\n"
        + "print('listening',flush=True)\ntime.sleep(1000)";
    Process holder = new ProcessBuilder("python3", "-c", script).start();
    try (ServiceSupervisor services = ServiceSupervisor.builder("web", port).build()) {
      assertThat(new BufferedReader(new InputStreamReader(holder.getInputStream())).readLine()).isEqualTo("listening");
      services.define(ServiceDefinition.of("http", dir.toString(), List.of("python3", "-m", "http.server"))
          .withReadiness(Readiness.projectPort()));

      assertThatThrownBy(() -> services.start("http"))
          .isInstanceOfSatisfying(ServiceException.PortInUse.class, e -> {
            assertThat(e.port()).isEqualTo(port);
            assertThat(e.holder()).get().extracting(PortHolder::pid).isEqualTo(holder.pid());
          })
          .hasMessageStartingWith("port " + port + " needed by service http is held by pid " + holder.pid() + " (")
          .hasMessageContaining("python")
          .hasMessageEndingWith("which Roundhouse does not manage; stop it or give the service another port");
      assertThat(services.state("http").status()).isEqualTo(ServiceStatus.STOPPED);
    } finally {
      holder.destroyForcibly();
      holder.onExit().join();
    }
  }
}
