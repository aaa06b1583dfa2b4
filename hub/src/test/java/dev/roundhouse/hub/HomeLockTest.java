package dev.roundhouse.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.roundhouse.hub.core.RoundhouseException;

class HomeLockTest {
  @TempDir Path home;

  /** Run in a child JVM: takes the lock, says so, then waits to be killed. */
  public static final class Holder {
    public static void main(String[] args) throws Exception {
      HomeLock lock = HomeLock.acquire(Path.of(args[0]), Instant.now());
      lock.publishUrl("http://127.0.0.1:1");
      System.out.println("locked");
      System.out.flush();
      Thread.sleep(Long.MAX_VALUE);
    }
  }

  /** Run in a child JVM: prints whether some process holds the lock. */
  public static final class Probe {
    public static void main(String[] args) {
      System.out.println(HomeLock.isHeld(Path.of(args[0])));
    }
  }

  private static String probe(Path file) throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Probe.class.getName(), file.toString())
        .redirectErrorStream(true)
        .start();
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    return out;
  }

  @Test
  void askingAboutTheLockInsideTheHoldingProcessDoesNotReleaseIt() throws Exception {
    // POSIX drops a process's lock when it closes any descriptor of the file: the queries must not open it.
    Path file = home.resolve("hub.lock");
    try (HomeLock lock = HomeLock.acquire(file, Instant.now())) {
      lock.publishUrl("http://127.0.0.1:9");
      assertThat(HomeLock.isHeld(file)).isTrue();
      assertThat(HomeLock.readHolder(file).orElseThrow().get("url").asText()).isEqualTo("http://127.0.0.1:9");
      assertThatThrownBy(() -> HomeLock.acquire(file, Instant.now())).isInstanceOf(RoundhouseException.HomeLocked.class);
      assertThatThrownBy(() -> HomeLock.acquire(home.resolve("./hub.lock"), Instant.now()))
          .isInstanceOf(RoundhouseException.HomeLocked.class);
      assertThat(probe(file)).endsWith("true");
    }
    assertThat(probe(file)).endsWith("false");
  }

  private Process startHolder(Path file) throws Exception {
    String java = ProcessHandle.current().info().command().orElse("java");
    return new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Holder.class.getName(), file.toString())
        .redirectErrorStream(true)
        .start();
  }

  private static void awaitLocked(Process process) throws Exception {
    BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    assertThat(line).as("the holder process reports it took the lock").isEqualTo("locked");
  }

  @Test
  void aSecondHolderIsRefusedNamingTheFirst() {
    Path file = home.resolve("hub.lock");
    try (HomeLock first = HomeLock.acquire(file, Instant.parse("2026-11-30T09:00:00Z"))) {
      first.publishUrl("http://127.0.0.1:7420");
      assertThat(HomeLock.isHeld(file)).isTrue();
      assertThatThrownBy(() -> HomeLock.acquire(file, Instant.now()))
          .isInstanceOf(RoundhouseException.HomeLocked.class)
          .hasMessageContaining("pid " + ProcessHandle.current().pid())
          .hasMessageContaining("started 2026-11-30T09:00:00Z")
          .hasMessageContaining("http://127.0.0.1:7420");
    }
    assertThat(HomeLock.isHeld(file)).isFalse();
    HomeLock.acquire(file, Instant.now()).close();
  }

  @Test
  void anotherProcessHoldingTheLockIsNamedAndASigkilledHolderDoesNotBlock() throws Exception {
    Path file = home.resolve("hub.lock");
    Process holder = startHolder(file);
    try {
      awaitLocked(holder);
      assertThat(HomeLock.isHeld(file)).isTrue();
      assertThatThrownBy(() -> HomeLock.acquire(file, Instant.now()))
          .isInstanceOf(RoundhouseException.HomeLocked.class)
          .hasMessageContaining("pid " + holder.pid());
    } finally {
      holder.destroyForcibly(); // SIGKILL: no shutdown hook, no cleanup
      assertThat(holder.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }
    assertThat(HomeLock.isHeld(file)).isFalse();
    try (HomeLock next = HomeLock.acquire(file, Instant.now())) {
      assertThat(HomeLock.readHolder(file).orElseThrow().get("pid").asLong()).isEqualTo(ProcessHandle.current().pid());
    }
  }

  @Test
  void theTokenIsCreatedOwnerOnlyAndKept() throws Exception {
    Path file = home.resolve("token");
    String token = LocalToken.loadOrCreate(file, new SecureRandom());
    assertThat(token).hasSizeGreaterThanOrEqualTo(43);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    assertThat(LocalToken.loadOrCreate(file, new SecureRandom())).isEqualTo(token);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
    assertThat(LocalToken.loadOrCreate(file, new SecureRandom())).isEqualTo(token);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
  }

  @Test
  void aSecondHubOnTheSameHomeIsRefusedAndTheFirstKeepsWorking() {
    try (InProcessHub first = Hub.open(HubConfig.forHome(home))) {
      assertThatThrownBy(() -> Hub.open(HubConfig.forHome(home)))
          .isInstanceOf(RoundhouseException.HomeLocked.class)
          .hasMessageContaining("another Roundhouse hub is using");
      assertThat(first.board().projects()).isEmpty();
    }
  }

  @Test
  void bindingANonLoopbackAddressNeedsExplicitPermission() {
    try (Hub hub = Hub.open(HubConfig.forHome(home).withBind("0.0.0.0", false))) {
      assertThatThrownBy(() -> dev.roundhouse.hub.http.HubServer.start(hub))
          .isInstanceOf(RoundhouseException.InvalidInput.class)
          .hasMessageContaining("refusing to bind 0.0.0.0")
          .hasMessageContaining("--allow-remote");
    }
  }
}
