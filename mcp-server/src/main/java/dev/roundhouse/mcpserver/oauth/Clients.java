package dev.roundhouse.mcpserver.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.model.ExtensionRecord;
import dev.roundhouse.hub.spi.ExtensionRecords;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Dynamic client registration (RFC 7591) and the registered clients, kept in the hub's store under
 * {@code client/<client_id>}. Every client is public (no secret; PKCE protects its codes). A redirect URI is an
 * {@code http} URI on a loopback host (matched at any port, RFC 8252 section 7.3), an {@code https} URI, or a
 * private-use scheme such as {@code cursor://} (matched exactly). At most {@value #MAX_CLIENTS} are kept: a
 * registration beyond that forgets the oldest client that holds no grant.
 *
 * <p>Thread-safe: every call is one store read or write.
 */
final class Clients {
  static final int MAX_CLIENTS = 200;
  private static final String PREFIX = "client/";
  private static final Set<String> LOOPBACK = Set.of("127.0.0.1", "[::1]", "::1", "localhost");
  private static final Set<String> REFUSED_SCHEMES = Set.of("javascript", "data", "file", "vbscript", "blob", "about");
  private static final int MAX_NAME = 100;

  private final ExtensionRecords records;
  private final Clock clock;
  private final Random random;

  /** A registered client, as stored. */
  record Client(String clientId, String clientName, List<String> redirectUris, Instant registeredAt) {
    Client {
      redirectUris = List.copyOf(redirectUris);
    }
  }

  Clients(ExtensionRecords records, Clock clock, Random random) {
    this.records = records;
    this.clock = clock;
    this.random = random;
  }

  /**
   * Registers the client {@code metadata} describes; {@code granted} says which clients hold a grant (they are
   * never forgotten to make room).
   *
   * @throws OAuthRefusal {@code invalid_redirect_uri} or {@code invalid_client_metadata}, saying what was wrong
   */
  Client register(JsonNode metadata, Predicate<String> granted) {
    if (metadata == null || !metadata.isObject()) {
      throw new OAuthRefusal(400, "invalid_client_metadata", "the registration body must be a JSON object");
    }
    List<String> redirects = new ArrayList<>();
    JsonNode uris = metadata.path("redirect_uris");
    if (!uris.isArray() || uris.isEmpty()) {
      throw new OAuthRefusal(400, "invalid_redirect_uri", "redirect_uris must be a non-empty array of URIs");
    }
    for (JsonNode uri : uris) {
      redirects.add(checkRedirect(uri.isTextual() ? uri.asText() : uri.toString()));
    }
    subset(metadata.path("grant_types"), Set.of("authorization_code", "refresh_token"), "grant_types");
    subset(metadata.path("response_types"), Set.of("code"), "response_types");
    String name = clean(metadata.path("client_name").asText(""));
    makeRoom(granted);
    Client client = new Client(Secrets.mint(random, "rh_client_").substring(0, 32), name.isEmpty() ? "an unnamed MCP client" : name,
        redirects, clock.instant());
    records.put(PREFIX + client.clientId(), client);
    return client;
  }

  Optional<Client> get(String clientId) {
    if (clientId == null || clientId.isBlank() || clientId.length() > 64) {
      return Optional.empty();
    }
    return records.get(PREFIX + clientId, Client.class);
  }

  List<Client> list() {
    return records.list(PREFIX).stream().map(r -> read(r)).toList();
  }

  boolean forget(String clientId) {
    return records.delete(PREFIX + clientId);
  }

  /**
   * Whether {@code redirect} is one of {@code client}'s: equal to a registered URI, or, for a loopback
   * {@code http} one, equal but for the port.
   */
  static boolean allows(Client client, String redirect) {
    if (redirect == null) {
      return false;
    }
    for (String registered : client.redirectUris()) {
      if (registered.equals(redirect)) {
        return true;
      }
      try {
        URI want = new URI(registered);
        URI got = new URI(redirect);
        if ("http".equals(want.getScheme()) && "http".equals(got.getScheme()) && loopback(want) && loopback(got)
            && want.getHost().equalsIgnoreCase(got.getHost()) && same(want.getRawPath(), got.getRawPath())
            && same(want.getRawQuery(), got.getRawQuery()) && got.getRawFragment() == null && got.getRawUserInfo() == null) {
          return true;
        }
      } catch (URISyntaxException e) {
        // not a URI: no match
      }
    }
    return false;
  }

  /** The host a person recognises a redirect by: the URI's host, or its scheme for a private-use one. */
  static String hostOf(String redirect) {
    try {
      URI uri = new URI(redirect);
      if (uri.getHost() != null) {
        return uri.getPort() < 0 ? uri.getHost() : uri.getHost() + ":" + uri.getPort();
      }
      return uri.getScheme() + ":";
    } catch (URISyntaxException e) {
      return redirect;
    }
  }

  private void makeRoom(Predicate<String> granted) {
    List<Client> all = list();
    if (all.size() < MAX_CLIENTS) {
      return;
    }
    all.stream().filter(c -> !granted.test(c.clientId())).min(Comparator.comparing(Client::registeredAt))
        .ifPresentOrElse(oldest -> forget(oldest.clientId()), () -> {
          throw new OAuthRefusal(400, "invalid_client_metadata",
              MAX_CLIENTS + " clients hold tokens already; revoke some with mcp_client_revoke first");
        });
  }

  private static String checkRedirect(String text) {
    URI uri;
    try {
      uri = new URI(text);
    } catch (URISyntaxException e) {
      throw new OAuthRefusal(400, "invalid_redirect_uri", "'" + text + "' is not a URI");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!uri.isAbsolute() || uri.getRawFragment() != null) {
      throw new OAuthRefusal(400, "invalid_redirect_uri", "'" + text + "' must be an absolute URI without a fragment");
    }
    if (scheme.equals("http") && !loopback(uri)) {
      throw new OAuthRefusal(400, "invalid_redirect_uri",
          "'" + text + "' is plain http on a host that is not this machine; use http://127.0.0.1, http://localhost or https");
    }
    if (REFUSED_SCHEMES.contains(scheme)) {
      throw new OAuthRefusal(400, "invalid_redirect_uri", "'" + text + "' uses the scheme " + scheme + ", which cannot receive a code");
    }
    if ((scheme.equals("http") || scheme.equals("https")) && uri.getHost() == null) {
      throw new OAuthRefusal(400, "invalid_redirect_uri", "'" + text + "' has no host");
    }
    return text;
  }

  private static void subset(JsonNode values, Set<String> supported, String field) {
    if (values.isMissingNode() || values.isNull()) {
      return;
    }
    if (!values.isArray()) {
      throw new OAuthRefusal(400, "invalid_client_metadata", field + " must be an array");
    }
    for (JsonNode value : values) {
      if (!supported.contains(value.asText())) {
        throw new OAuthRefusal(400, "invalid_client_metadata",
            field + " has '" + value.asText() + "'; this server supports " + String.join(", ", supported.stream().sorted().toList()));
      }
    }
  }

  private static boolean loopback(URI uri) {
    return uri.getHost() != null && LOOPBACK.contains(uri.getHost().toLowerCase(Locale.ROOT));
  }

  private static boolean same(String a, String b) {
    return a == null ? b == null : a.equals(b);
  }

  private static String clean(String name) {
    String printable = name.codePoints().filter(c -> !Character.isISOControl(c))
        .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString().strip();
    return printable.length() > MAX_NAME ? printable.substring(0, MAX_NAME) : printable;
  }

  private static Client read(ExtensionRecord record) {
    return dev.roundhouse.hub.core.Json.mapper().convertValue(record.value(), Client.class);
  }
}
