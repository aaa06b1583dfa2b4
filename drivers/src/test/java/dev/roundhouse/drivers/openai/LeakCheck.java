package dev.roundhouse.drivers.openai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.testing.Waits;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Checks after each test that nothing leaked: no child process of this JVM is left (commands and their
 * children are killed), and no HTTP client's selector thread is left running (each turn's client is shut
 * down). Waits with a deadline, since both end asynchronously.
 */
final class LeakCheck implements AfterEachCallback {
  @Override
  public void afterEach(ExtensionContext context) {
    Waits.until("no child processes left", Duration.ofSeconds(10), () -> ProcessHandle.current().descendants().noneMatch(ProcessHandle::isAlive));
    Waits.until("no HTTP client selector threads left", Duration.ofSeconds(10), () -> selectorThreads().isEmpty());
    assertThat(ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList()).isEmpty();
  }

  private static List<String> selectorThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(name -> name.startsWith("HttpClient-") && name.endsWith("-SelectorManager"))
        .toList();
  }
}
