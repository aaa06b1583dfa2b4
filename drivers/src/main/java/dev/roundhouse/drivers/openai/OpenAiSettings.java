package dev.roundhouse.drivers.openai;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * The endpoint, model and key one turn uses, resolved from the environment and {@code openai.json} by
 * {@link OpenAiConfig}. Its {@code toString} never shows the key.
 *
 * <p>Immutable and thread-safe.
 */
final class OpenAiSettings {
  private final URI baseUrl;
  private final String model;
  private final Secret apiKey;
  private final String keySource;
  private final String problem;
  private final long contextChars;

  /**
   * @param baseUrl the endpoint, without a trailing slash; null when none is configured
   * @param model the default model, or null
   * @param apiKey the key, or null for a keyless (local) endpoint
   * @param keySource where the key came from, for messages ("OPENROUTER_API_KEY"); null when there is none
   * @param problem a configuration error that keeps turns from running, or null
   */
  OpenAiSettings(URI baseUrl, String model, Secret apiKey, String keySource, String problem) {
    this(baseUrl, model, apiKey, keySource, problem, OpenAiConfig.DEFAULT_CONTEXT_CHARS);
  }

  /**
   * @param contextChars the budget, in characters, for what one request carries (see {@link #contextChars()})
   */
  OpenAiSettings(URI baseUrl, String model, Secret apiKey, String keySource, String problem, long contextChars) {
    this.baseUrl = baseUrl;
    this.model = model;
    this.apiKey = apiKey;
    this.keySource = keySource;
    this.problem = problem;
    this.contextChars = contextChars;
  }

  /**
   * The most one request may carry, in characters of its JSON (system prompt, tool definitions and the
   * conversation); the oldest exchanges of earlier turns are left out to stay under it.
   */
  long contextChars() {
    return contextChars;
  }

  /** The endpoint without a trailing slash, such as {@code https://openrouter.ai/api/v1}. */
  Optional<URI> baseUrl() {
    return Optional.ofNullable(baseUrl);
  }

  Optional<String> model() {
    return Optional.ofNullable(model);
  }

  Optional<Secret> apiKey() {
    return Optional.ofNullable(apiKey);
  }

  /** Where the key came from ("ROUNDHOUSE_OPENAI_API_KEY", "api_key in openai.json"). */
  Optional<String> keySource() {
    return Optional.ofNullable(keySource);
  }

  /** A configuration error in one sentence, when turns cannot run with these settings. */
  Optional<String> problem() {
    return Optional.ofNullable(problem);
  }

  /** {@code baseUrl} + {@code path}; {@code path} starts with a slash. */
  URI resolve(String path) {
    return URI.create(baseUrl + path);
  }

  /**
   * What messages call the endpoint: "OpenRouter", "OpenAI", "Ollama", "LM Studio", or "the endpoint at
   * host:port".
   */
  String endpointName() {
    if (baseUrl == null) {
      return "the endpoint";
    }
    String host = baseUrl.getHost() == null ? "" : baseUrl.getHost().toLowerCase(Locale.ROOT);
    if (host.equals("openrouter.ai") || host.endsWith(".openrouter.ai")) {
      return "OpenRouter";
    }
    if (host.equals("api.openai.com")) {
      return "OpenAI";
    }
    if (baseUrl.getPort() == 11434) {
      return "Ollama";
    }
    if (baseUrl.getPort() == 1234) {
      return "LM Studio";
    }
    return "the endpoint at " + host + (baseUrl.getPort() < 0 ? "" : ":" + baseUrl.getPort());
  }

  /**
   * True when the endpoint is on this machine or a private network, where servers such as Ollama and LM
   * Studio need no key. Decided from the URL alone (no DNS lookup).
   */
  boolean isLocal() {
    if (baseUrl == null || baseUrl.getHost() == null) {
      return false;
    }
    String host = baseUrl.getHost().toLowerCase(Locale.ROOT);
    if (host.startsWith("[")) {
      host = host.substring(1, host.length() - 1);
    }
    return host.equals("localhost")
        || host.endsWith(".localhost")
        || host.endsWith(".local")
        || host.endsWith(".lan")
        || host.equals("host.docker.internal")
        || host.equals("::1")
        || host.startsWith("127.")
        || host.startsWith("10.")
        || host.startsWith("192.168.")
        || host.matches("172\\.(1[6-9]|2\\d|3[01])\\..*")
        || host.equals("0.0.0.0")
        || !host.contains(".") && !host.contains(":");
  }

  /** {@code text} with the key scrubbed out; the one place every outgoing message passes. */
  String redact(String text) {
    return apiKey == null || text == null ? text : apiKey.scrub(text);
  }

  @Override
  public String toString() {
    return "OpenAiSettings[baseUrl=" + baseUrl + ", model=" + model + ", apiKey="
        + (apiKey == null ? "none" : Secret.REDACTED + " from " + keySource) + "]";
  }
}
