package dev.roundhouse.hub.core;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.Logger;

/**
 * Logs an unexpected failure under a short random reference, so that what a caller is told names the reference
 * ("the hub log has the details under reference 1a2b3c4d") and never the failure's internals. Stateless;
 * thread-safe.
 */
public final class FailureLog {
  private FailureLog() {}

  /** Logs {@code failure} at error level as "{@code what}; reference R", with its stack trace; returns R. */
  public static String logged(Logger log, String what, Throwable failure) {
    String reference = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
    log.error("{}; reference {}", what, reference, failure);
    return reference;
  }
}
