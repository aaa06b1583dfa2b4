package dev.roundhouse.drivers.openai;

import java.util.Objects;
import java.util.Optional;

/**
 * An API key. Its {@link #toString()} never shows the value, so a key that ends up in a log line, a record's
 * {@code toString} or an exception message shows as {@code [redacted]}; the value leaves this class only
 * through {@link #reveal()}, which the HTTP client calls to build the {@code Authorization} header.
 *
 * <p>Immutable and thread-safe.
 */
final class Secret {
  /** Shown instead of the value, wherever the value would have appeared. */
  static final String REDACTED = "[redacted]";

  /**
   * Values shorter than this are not scrubbed out of text: local servers accept any placeholder key
   * ("ollama", "lm-studio"), and replacing such a word everywhere would mangle ordinary output.
   */
  static final int MIN_SCRUBBED_LENGTH = 12;

  private final String value;

  private Secret(String value) {
    this.value = value;
  }

  /** The key, or empty when {@code value} is null or blank (no key configured). */
  static Optional<Secret> of(String value) {
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(new Secret(value.strip()));
  }

  /** The key itself; only for the {@code Authorization} header. */
  String reveal() {
    return value;
  }

  /** True when {@code text} contains the key (and the key is long enough to be told from a word). */
  boolean occursIn(String text) {
    return text != null && value.length() >= MIN_SCRUBBED_LENGTH && text.contains(value);
  }

  /** {@code text} with every occurrence of the key replaced by {@value #REDACTED}. */
  String scrub(String text) {
    return occursIn(text) ? text.replace(value, REDACTED) : text;
  }

  @Override
  public String toString() {
    return "Secret" + REDACTED;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof Secret secret && secret.value.equals(value);
  }

  @Override
  public int hashCode() {
    return Objects.hash(value);
  }
}
