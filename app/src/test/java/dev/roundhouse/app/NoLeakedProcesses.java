package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.testing.PostgresServer;
import dev.roundhouse.hub.testing.Waits;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test that leaves a child process of this JVM running (a hub, a client, an agent CLI probe),
 * after killing it so the next test starts clean. Stateless.
 */
final class NoLeakedProcesses implements AfterEachCallback {
  @Override
  public void afterEach(ExtensionContext context) {
    List<ProcessHandle> leaked = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive)
        .filter(p -> !PostgresServer.isSharedServer(p)) // shared by the tests, stopped when the JVM ends
        .toList();
    if (leaked.isEmpty()) {
      return;
    }
    String names = leaked.stream().map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList().toString();
    leaked.forEach(ProcessHandle::destroyForcibly);
    Waits.until("leaked processes to die", Duration.ofSeconds(10), () -> leaked.stream().noneMatch(ProcessHandle::isAlive));
    assertThat(names).as("child processes left running by the test").isEqualTo("[]");
  }
}
