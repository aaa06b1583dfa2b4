package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.testing.TestHub;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExitCodesTest {
  @TempDir Path emptyHome;

  @Test
  void anUnknownTaskExits1AndTheMessageNamesIt() {
    try (TestHub hub = TestHub.start()) {
      CliResult result = CliResult.run(context(hub), "task", "show", "42");

      assertThat(result.exit()).isEqualTo(1);
      assertThat(result.err()).isEqualTo("roundhouse: no task 42\n");
      assertThat(result.out()).isEmpty();
    }
  }

  @Test
  void anUnknownCommandOrMissingArgumentExits2WithUsage() {
    Context cli = context(emptyHome, emptyHome);

    CliResult unknown = CliResult.run(cli, "task", "frobnicate");
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.err()).contains("Unmatched argument at index 1: 'frobnicate'");

    CliResult missing = CliResult.run(cli, "task", "add", "A", "title");
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err()).contains("Missing required option: '--project=P'");

    CliResult bare = CliResult.run(cli);
    assertThat(bare.exit()).isEqualTo(2);
    assertThat(bare.err()).contains("name a command: serve, project, task, ");

    CliResult group = CliResult.run(cli, "project");
    assertThat(group.exit()).isEqualTo(2);
    assertThat(group.err()).contains("name a project command: add, list or show");
  }

  @Test
  void argumentsAreCheckedBeforeTheHubIsContacted() {
    CliResult result = CliResult.run(context(emptyHome, emptyHome), "task", "update", "1");

    assertThat(result.exit()).isEqualTo(2);
    assertThat(result.err()).contains("say what to change");
  }

  @Test
  void noHubForTheHomeExits3SayingHowToStartOne() {
    CliResult result = CliResult.run(context(emptyHome, emptyHome), "task", "list");

    assertThat(result.exit()).isEqualTo(3);
    assertThat(result.err())
        .isEqualTo("roundhouse: no hub is running for " + emptyHome + "; start one with ./roundhouse serve\n");
  }

  @Test
  void aRefusedConnectionExits3() throws IOException {
    try (TestHub hub = TestHub.start()) {
      Map<String, String> env = new HashMap<>(context(hub).env());
      env.put("ROUNDHOUSE_URL", "http://127.0.0.1:" + closedPort());

      CliResult result = CliResult.run(new Context(env, hub.home()), "project", "list");

      assertThat(result.exit()).isEqualTo(3);
      assertThat(result.err()).startsWith("roundhouse: no hub answers at http://127.0.0.1:").contains("ROUNDHOUSE_URL", "connection refused");
    }
  }

  @Test
  void roundhouseUrlOverridesTheLockFile() {
    try (TestHub hub = TestHub.start()) {
      Map<String, String> env = new HashMap<>(context(hub).env());
      env.put("ROUNDHOUSE_URL", hub.server().url() + "/");

      CliResult result = CliResult.run(new Context(env, hub.home()), "project", "list", "--json");

      assertThat(result.exit()).as("%s", result).isZero();
      assertThat(result.json().path("projects").isArray()).isTrue();
    }
  }

  @Test
  void serveOnAHomeAnotherHubHoldsExits4NamingItsPid() {
    try (TestHub hub = TestHub.start()) {
      CliResult result = CliResult.run(context(hub), "serve", "--port", "0");

      assertThat(result.exit()).isEqualTo(4);
      assertThat(result.err())
          .startsWith("roundhouse: another Roundhouse hub is using " + hub.home())
          .contains("pid " + ProcessHandle.current().pid());
    }
  }

  @Test
  void serveRefusesANonLoopbackBindWithoutAllowRemoteAtOnceAndLeavesTheHomeEmpty() throws IOException {
    long started = System.nanoTime();
    CliResult result = CliResult.run(context(emptyHome, emptyHome), "serve", "--port", "0", "--bind", "0.0.0.0");

    assertThat(result.exit()).isEqualTo(5);
    assertThat(result.err()).startsWith("roundhouse: refusing to bind 0.0.0.0").contains("--allow-remote");
    try (var created = java.nio.file.Files.list(emptyHome)) {
      assertThat(created).as("no database, token or lock before the options are checked").isEmpty();
    }
    assertThat(java.time.Duration.ofNanos(System.nanoTime() - started)).isLessThan(java.time.Duration.ofSeconds(5));
  }

  @Test
  void serveOnAPortInUseExits5NamingThePort() throws IOException {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      int port = taken.getLocalPort();

      CliResult result = CliResult.run(context(emptyHome, emptyHome), "serve", "--port", Integer.toString(port));

      assertThat(result.exit()).isEqualTo(5);
      assertThat(result.err()).startsWith("roundhouse: cannot listen on 127.0.0.1:" + port);
    }
  }

  @Test
  void serveWithAnInvalidPortExits5() {
    CliResult result = CliResult.run(context(emptyHome, emptyHome), "serve", "--port", "70000");

    assertThat(result.exit()).isEqualTo(5);
    assertThat(result.err()).isEqualTo("roundhouse: port 70000 is not between 0 and 65535\n");
  }

  @Test
  void versionNamesTheBuild() {
    CliResult result = CliResult.run(context(emptyHome, emptyHome), "--version");

    assertThat(result.exit()).isZero();
    assertThat(result.out()).startsWith("roundhouse ").contains("(Java ");
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      return socket.getLocalPort();
    }
  }
}
