package dev.roundhouse.hubclient;

import java.util.Objects;

/**
 * Where a running hub listens and the bearer token it expects. Immutable.
 *
 * @param url the base URL, such as {@code http://127.0.0.1:7420}, without a trailing slash
 * @param token the local token ({@code $ROUNDHOUSE_HOME/token})
 */
public record HubAddress(String url, String token) {
  public HubAddress {
    Objects.requireNonNull(url, "url");
    Objects.requireNonNull(token, "token");
    url = url.replaceAll("/+$", "");
  }

  @Override
  public String toString() {
    return "HubAddress[" + url + "]"; // never the token
  }
}
