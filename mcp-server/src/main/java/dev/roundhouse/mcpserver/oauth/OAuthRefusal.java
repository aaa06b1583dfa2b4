package dev.roundhouse.mcpserver.oauth;

import dev.roundhouse.hub.core.RoundhouseException;

/**
 * A refusal in OAuth's terms: its {@link #code()} is the OAuth {@code error} ({@code invalid_request},
 * {@code invalid_grant}, ...), its message the {@code error_description}, with the HTTP status to answer. Immutable.
 */
final class OAuthRefusal extends RoundhouseException {
  private static final long serialVersionUID = 1L;
  private final int status;

  OAuthRefusal(int status, String error, String description) {
    super(error, description);
    this.status = status;
  }

  static OAuthRefusal invalidRequest(String description) {
    return new OAuthRefusal(400, "invalid_request", description);
  }

  static OAuthRefusal invalidGrant(String description) {
    return new OAuthRefusal(400, "invalid_grant", description);
  }

  static OAuthRefusal invalidTarget(String description) {
    return new OAuthRefusal(400, "invalid_target", description);
  }

  static OAuthRefusal invalidClient(String description) {
    return new OAuthRefusal(401, "invalid_client", description);
  }

  int status() {
    return status;
  }
}
