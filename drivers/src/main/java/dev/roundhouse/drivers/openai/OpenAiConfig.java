package dev.roundhouse.drivers.openai;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The driver's configuration, read from the environment and the optional {@code $ROUNDHOUSE_HOME/openai.json}.
 *
 * <p>Three layers, most specific last: the environment ({@code ROUNDHOUSE_OPENAI_BASE_URL},
 * {@code ROUNDHOUSE_OPENAI_API_KEY}, {@code ROUNDHOUSE_OPENAI_MODEL}), the file's {@code default}, and the
 * file's entry in {@code projects} for the turn's project. The model is taken from the most specific layer
 * that names one. The base URL and the key travel together: the most specific layer that names either
 * decides both (a layer with a key and no base URL means OpenAI's), so a key is never sent to an endpoint it
 * was not configured for.
 *
 * <p>Immutable and thread-safe; {@link #load} reads the file each time it is called, so edits take effect
 * at the next turn.
 */
final class OpenAiConfig {
  static final String FILE_NAME = "openai.json";
  static final String ENV_BASE_URL = "ROUNDHOUSE_OPENAI_BASE_URL";
  static final String ENV_API_KEY = "ROUNDHOUSE_OPENAI_API_KEY";
  static final String ENV_MODEL = "ROUNDHOUSE_OPENAI_MODEL";
  static final String ENV_CONTEXT_CHARS = "ROUNDHOUSE_OPENAI_CONTEXT_CHARS";
  /**
   * The default budget for what one request carries (system prompt, tool definitions, the conversation):
   * 360 000 characters, about 90 000 tokens at four characters a token, which leaves a 128k-token model room
   * for its answer and for text that tokenises worse.
   */
  static final long DEFAULT_CONTEXT_CHARS = 360_000;
  /** The smallest budget accepted: below it not even a system prompt and the tools fit. */
  static final long MIN_CONTEXT_CHARS = 4_000;
  static final String OPENAI_BASE_URL = "https://api.openai.com/v1";

  private static final Set<String> LAYER_FIELDS = Set.of("base_url", "model", "api_key_env", "api_key", "context_chars");
  private static final long MAX_FILE_BYTES = 1 << 20;

  /**
   * One layer of settings.
   *
   * @param declaresEndpoint names a base URL or a key, and so decides both
   * @param keyProblem a key this layer names cannot be had (its variable is unset)
   */
  private record Layer(
      String origin,
      String baseUrl,
      boolean declaresEndpoint,
      Secret key,
      String keySource,
      String keyProblem,
      String model,
      Long contextChars) {}

  private final Path file;
  private final Layer environment;
  private final Layer fileDefault;
  private final Map<String, Layer> projects;
  private final String fileProblem;
  private final List<String> warnings;
  private final Set<String> keyVariables;

  private OpenAiConfig(
      Path file,
      Layer environment,
      Layer fileDefault,
      Map<String, Layer> projects,
      String fileProblem,
      List<String> warnings,
      Set<String> keyVariables) {
    this.file = file;
    this.environment = environment;
    this.fileDefault = fileDefault;
    this.projects = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(projects));
    this.fileProblem = fileProblem;
    this.warnings = List.copyOf(warnings);
    this.keyVariables = Set.copyOf(keyVariables);
  }

  /**
   * Reads the configuration. Never throws for a bad file: the problem is kept and reported by
   * {@link #settingsFor} (and so by every turn and by the driver's auth check).
   *
   * @param env the process environment (tests pass their own)
   * @param home the Roundhouse home, where {@code openai.json} may be
   */
  static OpenAiConfig load(Map<String, String> env, Path home) {
    Path file = home.resolve(FILE_NAME);
    Set<String> keyVariables = new LinkedHashSet<>(List.of(ENV_API_KEY));
    Layer environment = environmentLayer(env, null);
    List<String> warnings = new ArrayList<>();
    Layer fileDefault = null;
    Map<String, Layer> projects = new LinkedHashMap<>();
    String problem = null;
    try {
      environment = environmentLayer(env, contextChars(ENV_CONTEXT_CHARS, env.get(ENV_CONTEXT_CHARS)));
      JsonNode root = readFile(file);
      if (root != null) {
        if (!root.isObject()) {
          throw new ConfigException(file + " must hold a JSON object with \"default\" and/or \"projects\"");
        }
        for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
          String name = names.next();
          if (!name.equals("default") && !name.equals("projects")) {
            throw new ConfigException(
                file + ": unknown setting '" + name + "' at the top level (known: default, projects)");
          }
        }
        boolean holdsKey = false;
        if (root.has("default")) {
          fileDefault = fileLayer(file, "default", root.get("default"), env, keyVariables);
          holdsKey |= root.get("default").has("api_key");
        }
        JsonNode projectNodes = root.path("projects");
        if (!projectNodes.isMissingNode()) {
          if (!projectNodes.isObject()) {
            throw new ConfigException(file + ": \"projects\" must be an object keyed by project name");
          }
          for (var entry : projectNodes.properties()) {
            projects.put(
                entry.getKey(),
                fileLayer(file, "projects." + entry.getKey(), entry.getValue(), env, keyVariables));
            holdsKey |= entry.getValue().has("api_key");
          }
        }
        if (holdsKey) {
          permissionWarning(file).ifPresent(warnings::add);
        }
      }
    } catch (ConfigException e) {
      problem = e.getMessage();
    }
    return new OpenAiConfig(file, environment, fileDefault, projects, problem, warnings, keyVariables);
  }

  /** The file this configuration reads, whether or not it exists. */
  Path file() {
    return file;
  }

  /** Things the user should fix that do not stop turns (a key in a file others can read). */
  List<String> warnings() {
    return warnings;
  }

  /** Every model the configuration names, default first. */
  List<String> models() {
    Set<String> models = new LinkedHashSet<>();
    for (Layer layer : layers()) {
      if (layer != null && layer.model() != null) {
        models.add(layer.model());
      }
    }
    projects.values().forEach(layer -> {
      if (layer.model() != null) {
        models.add(layer.model());
      }
    });
    return List.copyOf(models);
  }

  /** Environment variables that hold keys; they are removed from the environment of commands the model runs. */
  Set<String> keyVariables() {
    return keyVariables;
  }

  /** The settings for a project's turns ({@code projectName} null or unknown: the defaults). */
  OpenAiSettings settingsFor(String projectName) {
    Layer project = projectName == null ? null : projects.get(projectName);
    List<Layer> stack = new ArrayList<>(layers());
    stack.add(project);
    Layer endpoint = null;
    String model = null;
    long contextChars = DEFAULT_CONTEXT_CHARS;
    for (Layer layer : stack) {
      if (layer == null) {
        continue;
      }
      if (layer.declaresEndpoint()) {
        endpoint = layer;
      }
      if (layer.model() != null) {
        model = layer.model();
      }
      if (layer.contextChars() != null) {
        contextChars = layer.contextChars();
      }
    }
    if (fileProblem != null) {
      return new OpenAiSettings(null, model, null, null, fileProblem);
    }
    if (endpoint == null) {
      return new OpenAiSettings(
          null,
          model,
          null,
          null,
          "no endpoint is configured: set " + ENV_API_KEY + " (for OpenAI) or " + ENV_BASE_URL
              + " (for OpenRouter, Ollama, LM Studio), or write " + file);
    }
    String rawUrl = endpoint.baseUrl() == null ? OPENAI_BASE_URL : endpoint.baseUrl();
    URI baseUrl;
    try {
      baseUrl = parseBaseUrl(rawUrl);
    } catch (ConfigException e) {
      return new OpenAiSettings(null, model, null, null, endpoint.origin() + ": " + e.getMessage());
    }
    return new OpenAiSettings(baseUrl, model, endpoint.key(), endpoint.keySource(), endpoint.keyProblem(), contextChars);
  }

  private List<Layer> layers() {
    List<Layer> layers = new ArrayList<>();
    layers.add(environment);
    layers.add(fileDefault);
    return layers;
  }

  private static Layer environmentLayer(Map<String, String> env, Long contextChars) {
    String baseUrl = blankToNull(env.get(ENV_BASE_URL));
    Secret key = Secret.of(env.get(ENV_API_KEY)).orElse(null);
    return new Layer(
        ENV_BASE_URL,
        baseUrl,
        baseUrl != null || key != null,
        key,
        key == null ? null : ENV_API_KEY,
        null,
        blankToNull(env.get(ENV_MODEL)),
        contextChars);
  }

  private static Layer fileLayer(
      Path file, String where, JsonNode node, Map<String, String> env, Set<String> keyVariables) {
    String origin = FILE_NAME + " " + where;
    if (!node.isObject()) {
      throw new ConfigException(file + ": \"" + where + "\" must be an object with base_url, model, api_key_env or api_key");
    }
    for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!LAYER_FIELDS.contains(name)) {
        throw new ConfigException(
            file + ": unknown setting '" + name + "' in \"" + where + "\" (known: base_url, model, api_key_env, api_key, context_chars)");
      }
    }
    if (node.has("api_key") && node.has("api_key_env")) {
      throw new ConfigException(file + ": \"" + where + "\" sets both api_key and api_key_env; keep one");
    }
    String baseUrl = text(file, where, node, "base_url");
    String model = text(file, where, node, "model");
    Secret key = null;
    String keySource = null;
    String keyProblem = null;
    boolean namesKey = false;
    if (node.has("api_key_env")) {
      String variable = text(file, where, node, "api_key_env");
      if (variable == null) {
        throw new ConfigException(file + ": \"" + where + "\".api_key_env is empty; name an environment variable");
      }
      namesKey = true;
      keyVariables.add(variable);
      keySource = variable;
      key = Secret.of(env.get(variable)).orElse(null);
      if (key == null) {
        keyProblem = "the environment variable " + variable + " (named by api_key_env in " + origin + ") is not set";
      }
    } else if (node.has("api_key")) {
      namesKey = true;
      key = Secret.of(node.get("api_key").isTextual() ? node.get("api_key").asText() : null).orElse(null);
      if (key == null) {
        throw new ConfigException(file + ": \"" + where + "\".api_key is empty or not a string");
      }
      keySource = "api_key in " + origin;
    }
    Long contextChars = null;
    JsonNode budget = node.get("context_chars");
    if (budget != null && !budget.isNull()) {
      if (!budget.canConvertToLong() || !budget.isIntegralNumber()) {
        throw new ConfigException(file + ": \"" + where + "\".context_chars must be a whole number of characters, such as " + DEFAULT_CONTEXT_CHARS);
      }
      contextChars = contextChars(file + ": \"" + where + "\".context_chars", budget.asText());
    }
    return new Layer(origin, baseUrl, baseUrl != null || namesKey, key, keySource, keyProblem, model, contextChars);
  }

  /** A context budget from its text; null when blank. */
  private static Long contextChars(String where, String raw) {
    if (raw == null || raw.isBlank()) {
      return null;
    }
    long value;
    try {
      value = Long.parseLong(raw.strip());
    } catch (NumberFormatException e) {
      throw new ConfigException(where + " must be a whole number of characters, such as " + DEFAULT_CONTEXT_CHARS + ", not '" + raw.strip() + "'");
    }
    if (value < MIN_CONTEXT_CHARS) {
      throw new ConfigException(where + " is " + value + "; the smallest context budget is " + MIN_CONTEXT_CHARS + " characters");
    }
    return value;
  }

  private static String text(Path file, String where, JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw new ConfigException(file + ": \"" + where + "\"." + field + " must be a string");
    }
    return blankToNull(value.asText());
  }

  private static JsonNode readFile(Path file) {
    try {
      if (Files.size(file) > MAX_FILE_BYTES) {
        throw new ConfigException(file + " is larger than 1 MiB; it should hold a few settings");
      }
      return Json.mapper().readTree(Files.readString(file));
    } catch (NoSuchFileException e) {
      return null;
    } catch (JsonProcessingException e) {
      JsonLocation where = e.getLocation();
      // The parser's own words may quote a token from the file, which could be a key: elide quoted text.
      String reason = e.getOriginalMessage().split("\n", 2)[0].replaceAll("'[^']*'", "'…'").replaceAll("\\([^)]*\\)", "").strip();
      throw new ConfigException(
          file + " is not valid JSON"
              + (where == null ? "" : " (line " + where.getLineNr() + ", column " + where.getColumnNr() + ")")
              + ": " + reason);
    } catch (IOException e) {
      throw new ConfigException("cannot read " + file + ": " + e.getMessage());
    }
  }

  private static java.util.Optional<String> permissionWarning(Path file) {
    try {
      Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
      Set<PosixFilePermission> shared = java.util.EnumSet.noneOf(PosixFilePermission.class);
      shared.addAll(permissions);
      shared.removeAll(Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_EXECUTE));
      if (shared.isEmpty()) {
        return java.util.Optional.empty();
      }
      return java.util.Optional.of(
          file + " holds an API key but its mode is " + PosixFilePermissions.toString(permissions)
              + " (other users can read it); run: chmod 600 " + file
              + ", or name an environment variable with api_key_env instead");
    } catch (UnsupportedOperationException | IOException e) {
      return java.util.Optional.empty();
    }
  }

  static URI parseBaseUrl(String raw) {
    String trimmed = raw.strip();
    while (trimmed.endsWith("/")) {
      trimmed = trimmed.substring(0, trimmed.length() - 1);
    }
    if (trimmed.endsWith("/chat/completions")) {
      trimmed = trimmed.substring(0, trimmed.length() - "/chat/completions".length());
    }
    try {
      URI uri = new URI(trimmed);
      String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
        throw new ConfigException("'" + raw + "' is not an http(s) URL such as http://127.0.0.1:11434/v1");
      }
      if (uri.getRawUserInfo() != null) {
        // Not echoed: the user-info part may be a key.
        throw new ConfigException("the base URL for " + uri.getHost() + " carries a user name or password; put the key in api_key_env instead");
      }
      if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
        throw new ConfigException("'" + raw + "' must not carry a query or a fragment");
      }
      return uri;
    } catch (URISyntaxException e) {
      throw new ConfigException("'" + raw + "' is not a URL: " + e.getReason());
    }
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }

  /** A configuration error, as one sentence naming the file and the setting. */
  static final class ConfigException extends dev.roundhouse.hub.core.RoundhouseException {
    private static final long serialVersionUID = 1L;

    ConfigException(String message) {
      super("openai_config", message);
    }
  }
}
