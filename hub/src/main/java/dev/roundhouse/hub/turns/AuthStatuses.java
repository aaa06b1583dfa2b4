package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.core.Locks;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.AuthStatus;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The drivers' auth statuses for {@code driver_list}, each kept for a while: a CLI driver's check runs the
 * CLI ({@code --version}, its login status), which takes a second, and faces list the drivers often (an
 * editor opening a session). Stale ones are checked at once, in parallel. {@code driver_verify}'s answer
 * replaces the kept one.
 *
 * <p>Thread-safe: a concurrent map of immutable entries; two callers may check the same driver at once,
 * and the later answer wins.
 */
final class AuthStatuses {
  /** How long a check stays fresh. */
  static final Duration FRESH = Duration.ofSeconds(30);

  private record Checked(AuthStatus status, Instant at) {}

  private final Clock clock;
  private final Map<String, Checked> checked = new ConcurrentHashMap<>();

  AuthStatuses(Clock clock) {
    this.clock = clock;
  }

  /** Each driver's status, in order: kept ones while fresh, the others checked now (in parallel). */
  List<AuthStatus> of(List<AgentDriver> drivers) {
    Instant now = clock.instant();
    try (ExecutorService checks = Executors.newVirtualThreadPerTaskExecutor()) {
      List<Future<AuthStatus>> statuses = drivers.stream().map(driver -> {
        Checked kept = checked.get(driver.id());
        if (kept != null && kept.at().plus(FRESH).isAfter(now)) {
          return CompletableFuture.completedFuture(kept.status());
        }
        return checks.submit(() -> remember(driver.id(), safe(driver, false)));
      }).toList();
      return statuses.stream().map(AuthStatuses::join).toList();
    }
  }

  /** A real round trip ({@link AgentDriver#verify}); its answer is kept as the driver's status. */
  AuthStatus verify(AgentDriver driver) {
    return remember(driver.id(), safe(driver, true));
  }

  private AuthStatus remember(String id, AuthStatus status) {
    checked.put(id, new Checked(status, clock.instant()));
    return status;
  }

  private static AuthStatus safe(AgentDriver driver, boolean verify) {
    Locks.assertNoneHeld("driver " + driver.id() + "'s auth check");
    try {
      return verify ? driver.verify() : driver.authStatus();
    } catch (RuntimeException e) {
      return AuthStatus.problem("the check failed: " + e.getMessage());
    }
  }

  private static AuthStatus join(Future<AuthStatus> status) {
    try {
      return status.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return AuthStatus.problem("the check was interrupted");
    } catch (ExecutionException e) {
      return AuthStatus.problem("the check failed: " + e.getCause().getMessage());
    }
  }
}
