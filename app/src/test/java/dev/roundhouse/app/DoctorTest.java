package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static dev.roundhouse.hub.testing.HttpTestClient.map;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.schedules.SchedulerSettings;
import dev.roundhouse.hub.testing.ManualClock;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hub.testing.Waits;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(NoLeakedProcesses.class)
class DoctorTest {
  @TempDir Path bin;
  @TempDir Path emptyHome;

  @Test
  void aRunningHubPassesWhileMissingAgentsOnlyWarn() throws IOException {
    try (TestHub hub = TestHub.start()) {
      Files.writeString(hub.home().resolve("agents.json"), """
          {"claude": {"command": "%s"}, "codex": {"command": "%s"}, "acp": [{"preset": "gemini", "command": "%s"}]}
          """.formatted(bin.resolve("claude"), bin.resolve("codex"), bin.resolve("gemini")));
      CliResult result = CliResult.run(withPath(context(hub)), "doctor");

      assertThat(result.exit()).as("%s", result).isZero();
      assertThat(result.out())
          .containsPattern("(?m)^ok +java +Java \\d+")
          .containsPattern("(?m)^ok +home +" + quoted(hub.home()) + " \\(writable\\)$")
          .containsPattern("(?m)^ok +database +" + quoted(hub.home().resolve("roundhouse.db")) + " \\(.+\\)$")
          .containsPattern("(?m)^ok +token +.+ \\(mode 0600\\)$")
          .containsPattern("(?m)^ok +hub +running at " + quoted(hub.server().url()) + ", version .+$")
          .containsPattern("(?m)^ok +port +in use by the hub")
          .containsPattern("(?m)^(ok|warn) +processes +.*run marker and process group \\(the running hub; cgroup: .+; parent death: .+\\)")
          .containsPattern("(?m)^warn +claude +Claude Code is not installed: " + quoted(bin.resolve("claude")) + " is not an executable file")
          .containsPattern("(?m)^warn +codex +codex is not installed")
          .containsPattern("(?m)^warn +gemini +.*not installed|(?m)^warn +gemini +.*" + quoted(bin.resolve("gemini")));
    }
  }

  @Test
  void aTokenReadableByOthersFailsAndExits1() throws IOException {
    Files.writeString(emptyHome.resolve("token"), "secret\n");
    Files.setPosixFilePermissions(emptyHome.resolve("token"), PosixFilePermissions.fromString("rw-r--r--"));

    CliResult result = CliResult.run(withPath(context(emptyHome, emptyHome)), "doctor", "--json");

    assertThat(result.exit()).isEqualTo(1);
    JsonNode json = result.json();
    assertThat(json.path("ok").asBoolean()).isFalse();
    JsonNode token = find(json, "token");
    assertThat(token.path("status").asText()).isEqualTo("fail");
    assertThat(token.path("detail").asText()).contains("rw-r--r--", "chmod 600");
    assertThat(find(json, "hub").path("detail").asText()).startsWith("not running");
    assertThat(find(json, "database").path("status").asText()).isEqualTo("warn");
  }

  @Test
  void aTakenPortFailsWhenNoHubRuns() throws IOException {
    try (ServerSocket taken = new ServerSocket()) {
      taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      Map<String, String> env = new HashMap<>(withPath(context(emptyHome, emptyHome)).env());
      env.put("ROUNDHOUSE_PORT", Integer.toString(taken.getLocalPort()));

      CliResult result = CliResult.run(new Context(env, emptyHome), "doctor");

      assertThat(result.exit()).isEqualTo(1);
      assertThat(result.out()).containsPattern("(?m)^fail +port +" + taken.getLocalPort() + " on 127\\.0\\.0\\.1 is in use by another program");
    }
  }

  @Test
  void eachConfiguredAgentIsCheckedByItsDriverAndAFailingOneIsAWarningWithItsOutput() throws Exception {
    script("codex", "echo 'codex: config is broken' >&2; exit 3");
    Files.createDirectories(emptyHome);
    Files.writeString(emptyHome.resolve("agents.json"), """
        {"claude": {"command": "%s"}, "codex": {"command": "%s"}, "acp": [{"preset": "gemini", "command": "%s"}]}
        """.formatted(bin.resolve("no-claude"), bin.resolve("codex"), bin.resolve("no-gemini")));

    CliResult result = CliResult.run(context(emptyHome, emptyHome), "doctor", "--json");

    JsonNode doctor = dev.roundhouse.hub.core.Json.read(result.out(), JsonNode.class);
    assertThat(find(doctor, "claude").path("status").asText()).isEqualTo("warn");
    assertThat(find(doctor, "claude").path("detail").asText()).contains(bin.resolve("no-claude") + " is not an executable file");
    assertThat(find(doctor, "codex").path("status").asText()).isEqualTo("warn");
    assertThat(find(doctor, "codex").path("detail").asText()).contains("config is broken");
    assertThat(find(doctor, "gemini").path("status").asText()).isEqualTo("warn");
    assertThat(find(doctor, "openai").path("status").asText()).isIn("ok", "warn");
  }

  @Test
  void aBadAgentsFileFailsTheDoctorNamingTheField() throws Exception {
    Files.writeString(emptyHome.resolve("agents.json"), "{\"codex\": {\"cmd\": \"codex\"}}");

    CliResult result = CliResult.run(context(emptyHome, emptyHome), "doctor");

    assertThat(result.exit()).isEqualTo(1);
    assertThat(result.out()).containsPattern("(?m)^fail +agents +.*unknown field 'cmd'");
  }

  @Test
  void aRunningHubsSchedulerIsOkWithItsLastTickNextFiringAndActiveSchedules() {
    try (TestHub hub = TestHub.start()) {
      hub.http().op("project_create", map("name", "web", "path", hub.folder("web")));
      hub.http().op("schedule_create", map("project", "web", "name", "yearly", "prompt", "Renew the certificates.",
          "recurrence", "0 9 1 1 *", "zone", "Europe/Berlin"));
      String next = hub.http().op("schedule_get", map("schedule", "yearly")).at("/schedule/next_at").asText();

      CliResult result = CliResult.run(withPath(context(hub)), "doctor");

      assertThat(result.exit()).as("%s", result).isZero();
      assertThat(result.out()).containsPattern(
          "(?m)^ok +scheduler +(last tick \\S+Z|no tick yet), next firing " + quoted(next) + ", 1 active schedule$");
    }
  }

  @Test
  void aStuckSchedulerIsAWarningNamingTheReason() {
    ManualClock clock = new ManualClock(Instant.parse("2026-12-01T10:00:00Z"));
    SchedulerSettings hourly = new SchedulerSettings(true, Duration.ofHours(1), Duration.ofMinutes(10));
    try (TestHub hub = TestHub.start(c -> c.withClock(clock).withScheduler(hourly))) {
      // The scheduler ticks once when the hub opens, then not for an hour of real time; the test's clock moves on.
      Waits.until("the scheduler's first tick", Duration.ofSeconds(20), () -> hub.hub().scheduler().status().lastTick() != null);
      clock.advance(Duration.ofHours(4));

      CliResult result = CliResult.run(withPath(context(hub)), "doctor", "--json");

      assertThat(result.exit()).as("a warning does not fail the doctor: %s", result).isZero();
      JsonNode scheduler = find(result.json(), "scheduler");
      assertThat(scheduler.path("status").asText()).isEqualTo("warn");
      assertThat(scheduler.path("detail").asText())
          .startsWith("looks stuck: the last tick was 14400 s ago (expected every 3600 s) (last tick 2026-12-01T10:00:00Z,")
          .contains("0 active schedules");
    }
  }

  @Test
  void aSchedulerSwitchedOffIsReportedOffAndWarnsOnlyWhenSchedulesWillNotFire() {
    try (TestHub hub = TestHub.start(c -> c.withScheduler(SchedulerSettings.DEFAULTS.withEnabled(false)))) {
      Context cli = withPath(context(hub));
      assertThat(CliResult.run(cli, "doctor").out())
          .containsPattern("(?m)^ok +scheduler +off: switched off by configuration \\(ROUNDHOUSE_SCHEDULER=off\\)$");

      hub.http().op("project_create", map("name", "web", "path", hub.folder("web")));
      hub.http().op("schedule_create", map("project", "web", "name", "hourly", "prompt", "x", "recurrence", "FREQ=HOURLY", "zone", "UTC"));

      assertThat(CliResult.run(cli, "doctor").out())
          .containsPattern("(?m)^warn +scheduler +off: switched off by configuration \\(ROUNDHOUSE_SCHEDULER=off\\); 1 active schedule will not fire$");
    }
  }

  @Test
  void noSchedulerLineWithoutARunningHub() {
    CliResult result = CliResult.run(withPath(context(emptyHome, emptyHome)), "doctor", "--json");

    assertThat(result.json().findValuesAsText("check")).contains("hub", "port").doesNotContain("scheduler");
  }

  private Context withPath(Context context) {
    Map<String, String> env = new HashMap<>(context.env());
    env.put("PATH", bin.toString()); // only the fake agents: a real one installed here must not change the outcome
    return new Context(env, context.workingDirectory());
  }

  private void script(String name, String body) throws IOException {
    Path file = bin.resolve(name);
    Files.writeString(file, "#!/bin/sh\nPATH=/usr/bin:/bin\n" + body + "\n");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private static JsonNode find(JsonNode doctor, String check) {
    for (JsonNode node : doctor.path("checks")) {
      if (node.path("check").asText().equals(check)) {
        return node;
      }
    }
    throw new AssertionError("no check " + check + " in " + doctor);
  }

  private static String quoted(Object text) {
    return java.util.regex.Pattern.quote(text.toString());
  }
}
