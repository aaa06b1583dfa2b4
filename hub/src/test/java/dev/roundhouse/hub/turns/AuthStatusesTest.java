package dev.roundhouse.hub.turns;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.testing.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.AuthStatus;
import dev.roundhouse.hub.spi.DriverCapabilities;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnRequest;

class AuthStatusesTest {
  private final ManualClock clock = new ManualClock(Instant.parse("2026-11-30T12:00:00Z"));
  private final AuthStatuses statuses = new AuthStatuses(clock);

  /** A driver whose check counts its calls and says which call it was. */
  private static final class Counting implements AgentDriver {
    final AtomicInteger checks = new AtomicInteger();
    private final String id;

    Counting(String id) {
      this.id = id;
    }

    @Override
    public String id() {
      return id;
    }

    @Override
    public DriverCapabilities capabilities() {
      return new DriverCapabilities(id, List.of(), List.of(), false, false, false, false, Set.of());
    }

    @Override
    public void run(TurnRequest request, TurnContext context) {}

    @Override
    public AuthStatus authStatus() {
      int n = checks.incrementAndGet();
      if (id.equals("broken")) {
        throw new IllegalStateException("no such file");
      }
      return AuthStatus.ok(id + " check " + n);
    }

    @Override
    public AuthStatus verify() {
      return AuthStatus.problem(id + " verified: the key is revoked");
    }
  }

  @Test
  void aCheckIsKeptForThirtySecondsThenRunAgain() {
    Counting cli = new Counting("cli");
    assertThat(statuses.of(List.of(cli))).extracting(AuthStatus::detail).containsExactly("cli check 1");
    clock.advance(Duration.ofSeconds(29));
    assertThat(statuses.of(List.of(cli))).extracting(AuthStatus::detail).containsExactly("cli check 1");
    clock.advance(Duration.ofSeconds(2));
    assertThat(statuses.of(List.of(cli))).extracting(AuthStatus::detail).containsExactly("cli check 2");
    assertThat(cli.checks).hasValue(2);
  }

  @Test
  void statusesComeInTheDriversOrderAndAFailingCheckIsAProblemNamingWhy() {
    List<AuthStatus> listed = statuses.of(List.of(new Counting("a"), new Counting("broken"), new Counting("b")));
    assertThat(listed).extracting(AuthStatus::detail).containsExactly("a check 1", "the check failed: no such file", "b check 1");
    assertThat(listed).extracting(AuthStatus::ok).containsExactly(true, false, true);
  }

  @Test
  void aVerifyReplacesTheKeptStatus() {
    Counting cli = new Counting("cli");
    statuses.of(List.of(cli));
    assertThat(statuses.verify(cli).detail()).isEqualTo("cli verified: the key is revoked");
    assertThat(statuses.of(List.of(cli))).extracting(AuthStatus::ok).containsExactly(false);
    assertThat(cli.checks).hasValue(1);
  }
}
