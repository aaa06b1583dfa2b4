package dev.roundhouse.calendaragent.caldav;

import dev.roundhouse.hub.core.RoundhouseException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One user's WebDAV requests to one server over {@code java.net.http}: Basic authentication with a password
 * read on each request (never kept), a timeout per request, no redirects followed, and a request whose
 * connection fails sent once more on a new connection (Radicale answers HTTP/1.0 and closes connections the
 * client may have pooled; callers only send reads or conditional writes, so a repeat is safe). A 401 (and a
 * 403, except where {@code allow403} says the caller handles it) is a {@code caldav_refused} error naming the
 * user, never the password.
 *
 * <p>Thread-safe: immutable.
 *
 * @param server what errors name (the collection, or the server being discovered)
 */
record DavClient(URI server, String user, Supplier<String> password, HttpClient http, Duration timeout) {

  HttpResponse<byte[]> send(String method, URI target, String depth, String body, Map<String, String> headers, boolean allow403) {
    HttpRequest.Builder request = HttpRequest.newBuilder(target)
        .timeout(timeout)
        .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
            (user + ":" + password.get()).getBytes(StandardCharsets.UTF_8)))
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
    if (depth != null) {
      request.header("Depth", depth);
    }
    if (body != null) {
      request.header("Content-Type", method.equals("PUT") ? "text/calendar; charset=utf-8" : "application/xml; charset=utf-8");
    }
    headers.forEach(request::header);
    try {
      HttpResponse<byte[]> response;
      try {
        response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      } catch (IOException stale) {
        // a pooled connection the server had closed (Radicale answers HTTP/1.0): send once more on a new one.
        // Safe for writes too, because every write is conditional: a PUT that did land the first time now
        // gets 412 and is then recognised as done.
        response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      }
      if (response.statusCode() == 401 || response.statusCode() == 403 && !allow403) {
        throw new RoundhouseException.Forbidden("caldav_refused", "CalDAV server " + server + " refused user '" + user + "' ("
            + response.statusCode() + ") for " + method + " " + target.getRawPath());
      }
      return response;
    } catch (IOException e) {
      throw new RoundhouseException("caldav_unreachable", "CalDAV server " + server + " did not answer " + method + " " + target.getRawPath()
          + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RoundhouseException("caldav_unreachable", "interrupted while calling " + server, e);
    }
  }

  /** The multistatus of a 207 answer; anything else is a {@code caldav_failed} error saying what came instead. */
  DavXml.MultiStatus multistatus(HttpResponse<byte[]> response, String what) {
    if (response.statusCode() != 207) {
      expect(response, what);
      throw new RoundhouseException("caldav_failed", "CalDAV server " + server + " answered " + response.statusCode()
          + " to " + what + " instead of a multistatus");
    }
    try {
      return DavXml.parse(response.body());
    } catch (IllegalArgumentException e) {
      throw new RoundhouseException("caldav_failed", "CalDAV server " + server + ": " + e.getMessage(), e);
    }
  }

  /** Refuses a non-2xx answer with its status and the first line of its body. */
  void expect(HttpResponse<byte[]> response, String what) {
    if (response.statusCode() / 100 != 2) {
      String text = new String(response.body(), StandardCharsets.UTF_8);
      throw new RoundhouseException("caldav_failed", "CalDAV server " + server + " answered " + response.statusCode() + " to " + what
          + (text.isBlank() ? "" : ": " + text.strip().lines().findFirst().orElse("")));
    }
  }
}
