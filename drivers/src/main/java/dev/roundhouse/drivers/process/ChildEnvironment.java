package dev.roundhouse.drivers.process;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The environment an agent CLI starts with: a short allowlist of the hub's variables (PATH, locale,
 * terminal, time zone, user), the variables a driver names for its agent (its API key, say), and the
 * driver's own settings. Nothing else of the hub's environment passes, so none of the hub's secrets (its
 * tokens, another vendor's key) reach a child or what the child runs. Mutable builder; not thread-safe.
 */
public final class ChildEnvironment {
  /** The hub's variables every child gets when set. */
  static final Set<String> ALLOWED = Set.of(
      "PATH", "HOME", "LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "TERM", "TZ", "USER", "LOGNAME",
      "SHELL", "TMPDIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME",
      "SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS", "NO_PROXY", "HTTPS_PROXY", "HTTP_PROXY",
      "no_proxy", "https_proxy", "http_proxy");

  private final Map<String, String> source;
  private final Map<String, String> variables = new LinkedHashMap<>();

  private ChildEnvironment(Map<String, String> source) {
    this.source = source;
    for (String name : ALLOWED) {
      String value = source.get(name);
      if (value != null) {
        variables.put(name, value);
      }
    }
  }

  /** Starts from the hub's own environment. */
  public static ChildEnvironment fromHub() {
    return new ChildEnvironment(System.getenv());
  }

  /** Starts from {@code source} instead of the hub's environment (for tests). */
  public static ChildEnvironment from(Map<String, String> source) {
    return new ChildEnvironment(Map.copyOf(source));
  }

  /**
   * Passes the hub's variables whose names start with one of {@code prefixes} (such as {@code ANTHROPIC_}),
   * except the hub's own ({@code ROUNDHOUSE_*}).
   */
  public ChildEnvironment passPrefixes(List<String> prefixes) {
    source.forEach((name, value) -> {
      if (!name.startsWith("ROUNDHOUSE_") && prefixes.stream().anyMatch(name::startsWith)) {
        variables.put(name, value);
      }
    });
    return this;
  }

  /** Sets a variable (the driver's setting, or the user's configured env for the agent). */
  public ChildEnvironment put(String name, String value) {
    variables.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
    return this;
  }

  /** Sets every variable of {@code more}. */
  public ChildEnvironment putAll(Map<String, String> more) {
    more.forEach(this::put);
    return this;
  }

  /** Removes a variable. */
  public ChildEnvironment remove(String name) {
    variables.remove(name);
    return this;
  }

  /** The variables, as they will be passed. */
  public Map<String, String> toMap() {
    return Map.copyOf(variables);
  }
}
