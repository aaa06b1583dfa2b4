package dev.roundhouse.drivers.codex;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.spi.AuthStatus;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the installed Codex says about itself: its version, the models it offers, its approval policies
 * (the driver's permission modes), its model provider and login. Immutable.
 *
 * @param version such as {@code 0.171.0}; null when Codex could not be run
 * @param models model ids from {@code model/list}, the configured default first
 * @param approvalPolicies the {@code AskForApproval} values of the protocol schema Codex generates
 * @param endpoint the model endpoint, described for humans
 * @param provider the configured model provider's id
 * @param providerKeyVariable the variable the provider reads its key from ({@code env_key}), or null
 * @param account the {@code account/read} answer's account, or null
 * @param requiresOpenaiAuth whether the provider needs an OpenAI login or key
 * @param problem why Codex could not be asked (not installed, crashed), or null
 */
record CodexFacts(
    String version,
    List<String> models,
    List<String> approvalPolicies,
    String endpoint,
    String provider,
    String providerKeyVariable,
    JsonNode account,
    boolean requiresOpenaiAuth,
    String problem) {

  CodexFacts {
    models = List.copyOf(models);
    approvalPolicies = List.copyOf(approvalPolicies);
  }

  static CodexFacts unavailable(String problem) {
    return new CodexFacts(null, List.of(), List.of(), null, null, null, null, false, problem);
  }

  /**
   * Whether Codex can run, in one sentence a human can act on: installed? which version? a login or key? {@code environment} is what
   * Codex would run with (to see whether the provider's key variable is set).
   */
  AuthStatus status(Map<String, String> environment) {
    if (problem != null) {
      return AuthStatus.problem(problem);
    }
    String prefix = "codex " + version;
    if (providerKeyVariable != null && !providerKeyVariable.isBlank()) {
      String value = environment.get(providerKeyVariable);
      if (value == null || value.isBlank()) {
        return AuthStatus.problem(prefix + " is installed, but its model provider '" + provider + "' reads its key from "
            + providerKeyVariable + ", which is not set: set it in the codex command's env");
      }
      return AuthStatus.ok(prefix + ", " + endpoint + ", key from " + providerKeyVariable);
    }
    Optional<JsonNode> login = Optional.ofNullable(account).filter(JsonNode::isObject);
    if (login.isPresent()) {
      JsonNode a = login.get();
      return AuthStatus.ok(switch (a.path("type").asText()) {
        case "chatgpt" -> prefix + ", logged in with ChatGPT" + (a.hasNonNull("email") ? " as " + a.path("email").asText() : "")
            + (a.hasNonNull("planType") ? " (" + a.path("planType").asText() + ")" : "");
        case "apiKey" -> prefix + ", logged in with an API key";
        default -> prefix + ", logged in (" + a.path("type").asText() + ")";
      });
    }
    if (!requiresOpenaiAuth) {
      return AuthStatus.ok(prefix + ", " + endpoint + ", which needs no login");
    }
    String key = environment.get("OPENAI_API_KEY");
    if (key != null && !key.isBlank()) {
      return AuthStatus.ok(prefix + ", key from OPENAI_API_KEY");
    }
    return AuthStatus.problem(prefix + " is installed but not logged in: run `codex login` (or set OPENAI_API_KEY)");
  }
}
