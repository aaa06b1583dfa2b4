package dev.roundhouse.services;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** A terminal viewer that keeps what it was shown and lets a test wait for text. Thread-safe. */
final class RecordingTerminal implements TerminalListener {
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final StringBuilder output = new StringBuilder();
  private Integer exitCode;

  @Override
  public void output(byte[] bytes) {
    lock.lock();
    try {
      output.append(new String(bytes, StandardCharsets.UTF_8));
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void exited(int code) {
    lock.lock();
    try {
      exitCode = code;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  String text() {
    lock.lock();
    try {
      return output.toString();
    } finally {
      lock.unlock();
    }
  }

  /** Waits until the output matches {@code regex} somewhere (the PTY echoes input, so match the answer). */
  String awaitMatch(String regex, Duration timeout) throws InterruptedException {
    java.util.regex.Pattern pattern = java.util.regex.Pattern.compile(regex);
    long remaining = timeout.toNanos();
    lock.lock();
    try {
      java.util.regex.Matcher matcher;
      while (!(matcher = pattern.matcher(output)).find()) {
        if (remaining <= 0) {
          throw new AssertionError("no match for " + regex + " within " + timeout + " in: " + output);
        }
        remaining = changed.awaitNanos(remaining);
      }
      return matcher.group();
    } finally {
      lock.unlock();
    }
  }

  int awaitExit(Duration timeout) throws InterruptedException {
    long remaining = timeout.toNanos();
    lock.lock();
    try {
      while (exitCode == null) {
        if (remaining <= 0) {
          throw new AssertionError("no exit within " + timeout);
        }
        remaining = changed.awaitNanos(remaining);
      }
      return exitCode;
    } finally {
      lock.unlock();
    }
  }

}
