package dev.roundhouse.drivers.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** Asserts that a test left no child process of this JVM behind (waiting, with a deadline, for exits). */
public final class ChildProcesses {
  private ChildProcesses() {}

  /** Waits up to {@code deadline} until this JVM has no descendant processes, then asserts it has none. */
  public static void assertNoneLeft(Duration deadline) throws InterruptedException {
    Instant until = Instant.now().plus(deadline);
    List<ProcessHandle> left = alive();
    while (!left.isEmpty() && Instant.now().isBefore(until)) {
      left.get(0).onExit().completeOnTimeout(null, 100, java.util.concurrent.TimeUnit.MILLISECONDS).join();
      left = alive();
    }
    assertThat(left.stream().map(ChildProcesses::describe).toList()).as("child processes left running").isEmpty();
  }

  private static List<ProcessHandle> alive() {
    return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
  }

  private static String describe(ProcessHandle process) {
    return process.pid() + " " + process.info().commandLine().orElse(process.info().command().orElse("?"));
  }
}
