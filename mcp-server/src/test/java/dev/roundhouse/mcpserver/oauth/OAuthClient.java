package dev.roundhouse.mcpserver.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A hand-written OAuth public client for the tests, speaking raw HTTP to a hub (no redirects followed): what an MCP
 * client and its browser do, one step per method, so a test can change any step. Not thread-safe.
 */
final class OAuthClient {
  private static final Pattern HIDDEN = Pattern.compile("name=\"(request|nonce)\" value=\"([^\"]+)\"");
  private static final Pattern DECISION = Pattern.compile("decision <strong>#(\\d+)</strong>");

  final String base;
  final HttpClient http = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();

  record Reply(int status, String body, HttpResponse<String> raw) {
    JsonNode json() {
      return Json.read(body, JsonNode.class);
    }

    String location() {
      return raw.headers().firstValue("Location").orElseThrow(() -> new AssertionError("no Location in " + status + " " + body));
    }
  }

  /** A sign-in page as the browser got it. */
  record Page(String request, String nonce, long decision, Reply reply) {}

  OAuthClient(String base) {
    this.base = base;
  }

  String resource() {
    return base + "/mcp";
  }

  Reply get(String path) {
    return send(HttpRequest.newBuilder(URI.create(path.startsWith("http") ? path : base + path)).GET());
  }

  Reply postJson(String path, String json) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)));
  }

  Reply postForm(String path, Map<String, String> form) {
    return send(HttpRequest.newBuilder(URI.create(base + path)).header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(encode(form))));
  }

  /** Registers a client returning to {@code redirect}; returns its client_id. */
  String register(String name, String redirect) {
    Reply reply = postJson("/oauth/register", Json.write(Map.of("client_name", name, "redirect_uris", java.util.List.of(redirect),
        "token_endpoint_auth_method", "none", "grant_types", java.util.List.of("authorization_code", "refresh_token"))));
    if (reply.status() != 201) {
      throw new AssertionError("registration failed: " + reply.status() + " " + reply.body());
    }
    return reply.json().path("client_id").asText();
  }

  Reply authorize(Map<String, String> parameters) {
    return get("/oauth/authorize?" + encode(parameters));
  }

  /** The authorization request parameters of a well-behaved client. */
  Map<String, String> request(String clientId, String redirect, String verifier, String state) {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("response_type", "code");
    parameters.put("client_id", clientId);
    parameters.put("redirect_uri", redirect);
    parameters.put("code_challenge", challenge(verifier));
    parameters.put("code_challenge_method", "S256");
    parameters.put("state", state);
    parameters.put("resource", resource());
    return parameters;
  }

  /** Opens the sign-in page and reads its hidden fields and the decision it waits for. */
  Page page(Map<String, String> parameters) {
    return open("/oauth/authorize?" + encode(parameters));
  }

  /** Opens the sign-in page at {@code url} (a path, or an authorization URL exactly as a client built it). */
  Page open(String url) {
    Reply reply = get(url);
    if (reply.status() != 200) {
      throw new AssertionError("no sign-in page: " + reply.status() + " " + reply.body() + " " + reply.raw().headers().map());
    }
    Map<String, String> hidden = new HashMap<>();
    Matcher matcher = HIDDEN.matcher(reply.body());
    while (matcher.find()) {
      hidden.put(matcher.group(1), matcher.group(2));
    }
    Matcher decision = DECISION.matcher(reply.body());
    if (!decision.find()) {
      throw new AssertionError("the page names no decision: " + reply.body());
    }
    return new Page(hidden.get("request"), hidden.get("nonce"), Long.parseLong(decision.group(1)), reply);
  }

  /** The page's long poll, once: where the browser goes next, or a pending answer. */
  Reply await(Page page) {
    return postForm("/oauth/authorize/wait", Map.of("request", page.request(), "nonce", page.nonce()));
  }

  Reply token(Map<String, String> form) {
    return postForm("/oauth/token", form);
  }

  Map<String, String> codeExchange(String clientId, String code, String redirect, String verifier) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("grant_type", "authorization_code");
    form.put("client_id", clientId);
    form.put("code", code);
    form.put("redirect_uri", redirect);
    form.put("code_verifier", verifier);
    form.put("resource", resource());
    return form;
  }

  Map<String, String> refresh(String clientId, String refreshToken) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("grant_type", "refresh_token");
    form.put("client_id", clientId);
    form.put("refresh_token", refreshToken);
    form.put("resource", resource());
    return form;
  }

  /** An MCP initialize with {@code bearer} (null for none). */
  Reply initialize(String bearer) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/mcp"))
        .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
        .POST(HttpRequest.BodyPublishers.ofString("""
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",\
            "capabilities":{},"clientInfo":{"name":"oauth-test","version":"1"}}}"""));
    if (bearer != null) {
      request.header("Authorization", "Bearer " + bearer);
    }
    return send(request);
  }

  static Map<String, String> query(String uri) {
    String query = URI.create(uri).getRawQuery();
    Map<String, String> values = new HashMap<>();
    for (String pair : query.split("&")) {
      int equals = pair.indexOf('=');
      values.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
    }
    return values;
  }

  static String challenge(String verifier) {
    try {
      return Base64.getUrlEncoder().withoutPadding().encodeToString(
          MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  private Reply send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
      return new Reply(response.statusCode(), response.body(), response);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static String encode(Map<String, String> form) {
    return form.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
        + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
  }
}
