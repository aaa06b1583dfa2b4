package dev.roundhouse.hub;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import dev.roundhouse.hub.core.FailureLog;

/** The reference an unexpected failure is logged under: short, hexadecimal, different each time. */
class FailureLogTest {
  @Test
  void aFailureIsLoggedUnderAFreshEightDigitHexReference() {
    var log = LoggerFactory.getLogger(FailureLogTest.class);
    String first = FailureLog.logged(log, "the test's own failure", new IllegalStateException("boom"));
    String second = FailureLog.logged(log, "the test's own failure", new IllegalStateException("boom"));
    assertThat(first).matches("[0-9a-f]{8}");
    assertThat(second).matches("[0-9a-f]{8}").isNotEqualTo(first);
  }
}
