package dev.roundhouse.drivers.openai;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OpenAiConfigTest {
  static final String OPENAI_KEY = "sk-openai-0123456789abcdef";
  static final String ROUTER_KEY = "sk-or-v1-0123456789abcdef";

  @TempDir Path home;

  private void write(String json, String mode) throws IOException {
    Path file = home.resolve("openai.json");
    Files.writeString(file, json);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
  }

  @Test
  void theEnvironmentAloneConfiguresOpenAi() {
    OpenAiSettings settings = OpenAiConfig.load(Map.of("ROUNDHOUSE_OPENAI_API_KEY", OPENAI_KEY, "ROUNDHOUSE_OPENAI_MODEL", "gpt-4.1-mini"), home).settingsFor("web");

    assertThat(settings.problem()).isEmpty();
    assertThat(settings.baseUrl()).hasValueSatisfying(url -> assertThat(url).hasToString("https://api.openai.com/v1"));
    assertThat(settings.model()).hasValue("gpt-4.1-mini");
    assertThat(settings.apiKey().map(Secret::reveal)).hasValue(OPENAI_KEY);
    assertThat(settings.keySource()).hasValue("ROUNDHOUSE_OPENAI_API_KEY");
    assertThat(settings.endpointName()).isEqualTo("OpenAI");
  }

  @Test
  void aLocalEndpointNeedsNoKey() {
    OpenAiSettings settings = OpenAiConfig.load(Map.of("ROUNDHOUSE_OPENAI_BASE_URL", "http://127.0.0.1:11434/v1/", "ROUNDHOUSE_OPENAI_MODEL", "qwen2.5-coder"), home).settingsFor(null);

    assertThat(settings.problem()).isEmpty();
    assertThat(settings.baseUrl()).hasValueSatisfying(url -> assertThat(url).hasToString("http://127.0.0.1:11434/v1"));
    assertThat(settings.apiKey()).isEmpty();
    assertThat(settings.isLocal()).isTrue();
    assertThat(settings.endpointName()).isEqualTo("Ollama");
  }

  @Test
  void nothingConfiguredSaysWhatToSet() {
    OpenAiSettings settings = OpenAiConfig.load(Map.of(), home).settingsFor("web");

    assertThat(settings.problem()).hasValueSatisfying(problem -> assertThat(problem)
        .startsWith("no endpoint is configured: set ROUNDHOUSE_OPENAI_API_KEY (for OpenAI) or ROUNDHOUSE_OPENAI_BASE_URL")
        .endsWith(home.resolve("openai.json").toString()));
  }

  @Test
  void theFileDefaultAndAProjectEntryOverrideTheEnvironment() throws IOException {
    write("""
        {"default": {"base_url": "https://openrouter.ai/api/v1", "model": "anthropic/claude-sonnet-4", "api_key_env": "OPENROUTER_API_KEY"},
         "projects": {"web": {"base_url": "http://localhost:1234/v1", "model": "qwen3-coder"},
                      "api": {"model": "openai/gpt-4.1"}}}
        """, "rw-------");
    OpenAiConfig config = OpenAiConfig.load(Map.of(
        "ROUNDHOUSE_OPENAI_API_KEY", OPENAI_KEY, "ROUNDHOUSE_OPENAI_MODEL", "gpt-4.1-mini", "OPENROUTER_API_KEY", ROUTER_KEY), home);

    OpenAiSettings fallback = config.settingsFor("other");
    assertThat(fallback.endpointName()).isEqualTo("OpenRouter");
    assertThat(fallback.model()).hasValue("anthropic/claude-sonnet-4");
    assertThat(fallback.apiKey().map(Secret::reveal)).hasValue(ROUTER_KEY);
    assertThat(fallback.keySource()).hasValue("OPENROUTER_API_KEY");

    OpenAiSettings web = config.settingsFor("web");
    assertThat(web.endpointName()).isEqualTo("LM Studio");
    assertThat(web.model()).hasValue("qwen3-coder");
    // The project names its own endpoint without a key: no other layer's key follows it there.
    assertThat(web.apiKey()).isEmpty();

    OpenAiSettings api = config.settingsFor("api");
    assertThat(api.endpointName()).isEqualTo("OpenRouter");
    assertThat(api.model()).hasValue("openai/gpt-4.1");
    assertThat(api.apiKey().map(Secret::reveal)).hasValue(ROUTER_KEY);

    assertThat(config.models()).containsExactly("gpt-4.1-mini", "anthropic/claude-sonnet-4", "qwen3-coder", "openai/gpt-4.1");
    assertThat(config.keyVariables()).containsExactlyInAnyOrder("ROUNDHOUSE_OPENAI_API_KEY", "OPENROUTER_API_KEY");
    assertThat(config.warnings()).isEmpty();
  }

  @Test
  void aKeyIsNeverSentToAnEndpointItWasNotConfiguredFor() throws IOException {
    // The environment's key is for OpenAI; the file points the default at a local server without a key.
    write("{\"default\": {\"base_url\": \"http://10.0.0.5:8000/v1\"}}", "rw-------");

    OpenAiSettings settings = OpenAiConfig.load(Map.of("ROUNDHOUSE_OPENAI_API_KEY", OPENAI_KEY), home).settingsFor(null);

    assertThat(settings.baseUrl()).hasValueSatisfying(url -> assertThat(url).hasToString("http://10.0.0.5:8000/v1"));
    assertThat(settings.apiKey()).isEmpty();
    assertThat(settings.isLocal()).isTrue();
  }

  @Test
  void aKeyInAFileOthersCanReadIsWarnedAbout() throws IOException {
    write("{\"default\": {\"model\": \"gpt-4.1\", \"api_key\": \"" + OPENAI_KEY + "\"}}", "rw-r--r--");

    OpenAiConfig config = OpenAiConfig.load(Map.of(), home);

    assertThat(config.warnings()).singleElement().satisfies(warning -> assertThat(warning)
        .contains("holds an API key but its mode is rw-r--r--")
        .contains("chmod 600")
        .doesNotContain(OPENAI_KEY));
    assertThat(config.settingsFor(null).keySource()).hasValue("api_key in openai.json default");
    assertThat(config.settingsFor(null).baseUrl()).hasValueSatisfying(url -> assertThat(url).hasToString("https://api.openai.com/v1"));
  }

  @Test
  void aKeyInAPrivateFileIsNotWarnedAbout() throws IOException {
    write("{\"default\": {\"model\": \"gpt-4.1\", \"api_key\": \"" + OPENAI_KEY + "\"}}", "rw-------");

    assertThat(OpenAiConfig.load(Map.of(), home).warnings()).isEmpty();
  }

  @Test
  void anUnsetKeyVariableIsAProblemThatNamesIt() throws IOException {
    write("{\"projects\": {\"web\": {\"base_url\": \"https://openrouter.ai/api/v1\", \"api_key_env\": \"OPENROUTER_API_KEY\"}}}", "rw-r--r--");

    OpenAiSettings settings = OpenAiConfig.load(Map.of("ROUNDHOUSE_OPENAI_MODEL", "m"), home).settingsFor("web");

    assertThat(settings.problem()).hasValue("the environment variable OPENROUTER_API_KEY (named by api_key_env in openai.json projects.web) is not set");
  }

  @Test
  void anUnknownSettingIsNamed() throws IOException {
    write("{\"default\": {\"base-url\": \"http://localhost:11434/v1\"}}", "rw-------");

    assertThat(OpenAiConfig.load(Map.of(), home).settingsFor(null).problem()).hasValue(
        home.resolve("openai.json") + ": unknown setting 'base-url' in \"default\" (known: base_url, model, api_key_env, api_key, context_chars)");
  }

  @Test
  void theContextBudgetDefaultsForA128kModelAndTheMostSpecificLayerSetsIt() throws IOException {
    Map<String, String> env = Map.of("ROUNDHOUSE_OPENAI_API_KEY", OPENAI_KEY, "ROUNDHOUSE_OPENAI_CONTEXT_CHARS", "200000");
    assertThat(OpenAiConfig.load(Map.of("ROUNDHOUSE_OPENAI_API_KEY", OPENAI_KEY), home).settingsFor(null).contextChars()).isEqualTo(360_000);
    assertThat(OpenAiConfig.load(env, home).settingsFor("web").contextChars()).isEqualTo(200_000);

    write("{\"default\": {\"context_chars\": 100000}, \"projects\": {\"web\": {\"context_chars\": 30000}}}", "rw-------");
    OpenAiConfig config = OpenAiConfig.load(env, home);

    assertThat(config.settingsFor("other").contextChars()).isEqualTo(100_000);
    assertThat(config.settingsFor("web").contextChars()).isEqualTo(30_000);
  }

  @Test
  void aContextBudgetThatIsNotAWholeNumberOrTooSmallIsNamed() throws IOException {
    assertThat(OpenAiConfig.load(Map.of("ROUNDHOUSE_OPENAI_API_KEY", OPENAI_KEY, "ROUNDHOUSE_OPENAI_CONTEXT_CHARS", "lots"), home)
        .settingsFor(null).problem()).hasValue("ROUNDHOUSE_OPENAI_CONTEXT_CHARS must be a whole number of characters, such as 360000, not 'lots'");

    write("{\"default\": {\"context_chars\": 100}}", "rw-------");

    assertThat(OpenAiConfig.load(Map.of("ROUNDHOUSE_OPENAI_API_KEY", OPENAI_KEY), home).settingsFor(null).problem()).hasValue(
        home.resolve("openai.json") + ": \"default\".context_chars is 100; the smallest context budget is 4000 characters");
  }

  @Test
  void brokenJsonIsReportedWithItsPositionButWithoutQuotingTheFile() throws IOException {
    write("{\"default\": {\"api_key\": " + OPENAI_KEY + "}}", "rw-------");

    String problem = OpenAiConfig.load(Map.of(), home).settingsFor(null).problem().orElseThrow();

    assertThat(problem).startsWith(home.resolve("openai.json") + " is not valid JSON (line 1, column ").doesNotContain(OPENAI_KEY);
  }

  @Test
  void aBaseUrlThatIsNotHttpIsNamed() {
    OpenAiSettings settings = OpenAiConfig.load(Map.of("ROUNDHOUSE_OPENAI_BASE_URL", "localhost:11434"), home).settingsFor(null);

    assertThat(settings.problem()).hasValue("ROUNDHOUSE_OPENAI_BASE_URL: 'localhost:11434' is not an http(s) URL such as http://127.0.0.1:11434/v1");
  }

  @Test
  void aPastedChatCompletionsUrlIsTrimmedToTheBase() {
    OpenAiSettings settings = OpenAiConfig.load(Map.of("ROUNDHOUSE_OPENAI_BASE_URL", "http://localhost:1234/v1/chat/completions"), home).settingsFor(null);

    assertThat(settings.baseUrl()).hasValueSatisfying(url -> assertThat(url).hasToString("http://localhost:1234/v1"));
  }

  @Test
  void theSettingsNeverShowTheKey() {
    OpenAiSettings settings = OpenAiConfig.load(Map.of("ROUNDHOUSE_OPENAI_API_KEY", OPENAI_KEY), home).settingsFor(null);

    assertThat(settings.toString()).doesNotContain(OPENAI_KEY).contains("[redacted]");
    assertThat(settings.apiKey().orElseThrow().toString()).isEqualTo("Secret[redacted]");
    assertThat(settings.redact("echo " + OPENAI_KEY + " done")).isEqualTo("echo [redacted] done");
  }

  @Test
  void shortPlaceholderKeysAreNotScrubbedFromText() {
    Secret placeholder = Secret.of("ollama").orElseThrow();

    assertThat(placeholder.scrub("ollama is running")).isEqualTo("ollama is running");
    assertThat(placeholder.toString()).isEqualTo("Secret[redacted]");
  }
}
