package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.testing.ShellEnvironment;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.services.PortPlan;
import dev.roundhouse.services.hub.ServicesSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** Contexts and runs for CLI tests. Stateless. */
final class CliTestSupport {
  private CliTestSupport() {}

  /**
   * Services settings on a random port range of their own, with a short stop grace, whose terminals start with
   * {@code HOME} an empty folder ({@link ShellEnvironment}).
   */
  static ServicesSettings servicesSettings() {
    int base = 45_000 + ThreadLocalRandom.current().nextInt(400) * 10;
    return ServicesSettings.defaults().withPorts(new PortPlan(base, 20, 10)).withStopGrace(Duration.ofSeconds(2))
        .withBaseEnv(ShellEnvironment.withEmptyHome());
  }

  /** A context whose ROUNDHOUSE_HOME is {@code home}, working in {@code cwd}, with this JVM's PATH. */
  static Context context(Path home, Path cwd) {
    Map<String, String> env = new HashMap<>();
    env.put("ROUNDHOUSE_HOME", home.toString());
    env.put("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    return new Context(env, cwd);
  }

  /** A context attached to {@code hub}'s home. */
  static Context context(TestHub hub) {
    return context(hub.home(), hub.home());
  }

  /** Runs {@code args} and asserts it exits 0. */
  static CliResult ok(Context context, String... args) {
    CliResult result = CliResult.run(context, args);
    assertThat(result.exit()).as("%s", result).isZero();
    return result;
  }
}
