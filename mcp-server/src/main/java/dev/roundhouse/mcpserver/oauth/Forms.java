package dev.roundhouse.mcpserver.oauth;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * {@code application/x-www-form-urlencoded} in both directions: a query string or form body read into single
 * values (a parameter given twice is refused, as OAuth requires), and parameters appended to a redirect URI.
 * Stateless.
 */
final class Forms {
  private Forms() {}

  /**
   * The parameters of {@code encoded} (a query string or a form body; null for none).
   *
   * @throws OAuthRefusal {@code invalid_request} naming a parameter given more than once
   */
  static Map<String, String> parse(String encoded) {
    Map<String, String> values = new HashMap<>();
    if (encoded == null || encoded.isEmpty()) {
      return values;
    }
    Set<String> repeated = new HashSet<>();
    for (String pair : encoded.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int equals = pair.indexOf('=');
      String name = decode(equals < 0 ? pair : pair.substring(0, equals));
      String value = equals < 0 ? "" : decode(pair.substring(equals + 1));
      if (values.putIfAbsent(name, value) != null) {
        repeated.add(name);
      }
    }
    if (!repeated.isEmpty()) {
      throw OAuthRefusal.invalidRequest("parameters given more than once: " + String.join(", ", repeated.stream().sorted().toList()));
    }
    return values;
  }

  /** {@code uri} with {@code parameters} added to its query, keeping what it had. */
  static String appendQuery(String uri, Map<String, String> parameters) {
    StringBuilder out = new StringBuilder(uri);
    char separator = uri.contains("?") ? '&' : '?';
    for (Map.Entry<String, String> parameter : parameters.entrySet()) {
      out.append(separator).append(encode(parameter.getKey())).append('=').append(encode(parameter.getValue()));
      separator = '&';
    }
    return out.toString();
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw OAuthRefusal.invalidRequest("the parameters are not valid form encoding");
    }
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
