package dev.roundhouse.calendaragent.browse;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.roundhouse.hub.core.RoundhouseException;

/**
 * The calendar agent's web browse tool: fetches one page through the {@link SsrfGuard} (every redirect hop
 * vetted again, at most {@value #MAX_REDIRECTS}), dialling only vetted addresses through its {@link Connector},
 * with the body capped at {@link #MAX_BYTES} and the whole fetch at {@link #TIMEOUT}. HTML becomes clean text
 * (see {@link HtmlText}) truncated at {@value #MAX_TEXT} characters with a marker; an iCalendar body is handed
 * back as is for the caller to parse. Thread-safe: immutable.
 */
public final class WebBrowser {
  public static final int MAX_REDIRECTS = 5;
  public static final int MAX_BYTES = 2 * 1024 * 1024;
  public static final int MAX_TEXT = 100_000;
  public static final Duration TIMEOUT = Duration.ofSeconds(20);
  private static final Pattern CHARSET = Pattern.compile("charset=\"?([A-Za-z0-9_.:-]+)");

  private final SsrfGuard guard;
  private final Connector connector;
  private final Clock clock;
  private final Duration timeout;

  public WebBrowser(NameResolver resolver, Connector connector, Clock clock, Duration timeout) {
    this.guard = new SsrfGuard(resolver);
    this.connector = connector;
    this.clock = clock;
    this.timeout = timeout;
  }

  /** The system resolver, dialling vetted addresses directly. */
  public static WebBrowser create(Clock clock) {
    return new WebBrowser(NameResolver.system(), Connector.direct(), clock, TIMEOUT);
  }

  /**
   * One fetched page.
   *
   * @param url the URL finally fetched (after redirects)
   * @param redirects the URLs that redirected, in order
   * @param kind {@code html}, {@code calendar} or {@code text}
   * @param text the clean text (HTML, plain text) or the iCalendar body
   * @param truncated whether the body or the text was cut
   */
  public record Page(String url, List<String> redirects, int status, String contentType, String kind, String title,
      String text, boolean truncated, String dialled) {}

  /** Fetches {@code url}; throws {@link SsrfGuard.Refused} for a URL or hop the guard refuses. */
  public Page browse(String url) {
    List<String> redirects = new ArrayList<>();
    String current = url;
    for (int hop = 0; ; hop++) {
      SsrfGuard.Target target = guard.vet(current);
      HttpFetch.Response response;
      try {
        response = HttpFetch.get(target, connector, clock, timeout, MAX_BYTES);
      } catch (IOException e) {
        throw new RoundhouseException("browse_failed", "fetching " + current + " failed: " + e.getMessage(), e);
      }
      int status = response.status();
      if (status == 301 || status == 302 || status == 303 || status == 307 || status == 308) {
        String location = response.header("Location");
        if (location == null) {
          throw new RoundhouseException("browse_failed", current + " redirected (" + status + ") without a Location");
        }
        if (hop >= MAX_REDIRECTS) {
          throw new SsrfGuard.Refused("more than " + MAX_REDIRECTS + " redirects, the last from " + current);
        }
        redirects.add(current);
        try {
          current = target.url().resolve(location.strip()).toString();
        } catch (IllegalArgumentException e) {
          throw new SsrfGuard.Refused(current + " redirected to '" + location + "', which is not a URL");
        }
        continue;
      }
      return page(current, redirects, response);
    }
  }

  private static Page page(String url, List<String> redirects, HttpFetch.Response response) {
    String type = response.header("Content-Type") == null ? "" : response.header("Content-Type");
    String mime = type.split(";")[0].strip().toLowerCase(Locale.ROOT);
    String body = new String(response.body(), charset(type));
    String dialled = response.dialled().getHostAddress();
    if (mime.equals("text/calendar") || body.stripLeading().startsWith("BEGIN:VCALENDAR")) {
      return new Page(url, List.copyOf(redirects), response.status(), type, "calendar", null, body, response.truncated(), dialled);
    }
    if (mime.equals("text/html") || mime.equals("application/xhtml+xml") || mime.isEmpty() && body.stripLeading().startsWith("<")) {
      HtmlText.Page html = HtmlText.of(body, url);
      String text = cap(html.text());
      return new Page(url, List.copyOf(redirects), response.status(), type, "html", html.title(), text,
          response.truncated() || text.length() != html.text().length(), dialled);
    }
    if (mime.startsWith("text/") || mime.equals("application/json")) {
      String text = cap(body);
      return new Page(url, List.copyOf(redirects), response.status(), type, "text", null, text,
          response.truncated() || text.length() != body.length(), dialled);
    }
    throw new RoundhouseException.InvalidInput("browse_unsupported",
        url + " is " + (mime.isEmpty() ? "of no declared type" : mime) + "; only HTML, text and iCalendar are read");
  }

  /** {@code text} cut at {@link #MAX_TEXT} characters with a marker saying how much was dropped. */
  static String cap(String text) {
    if (text.length() <= MAX_TEXT) {
      return text;
    }
    return text.substring(0, MAX_TEXT) + "\n[truncated: " + (text.length() - MAX_TEXT) + " more characters]";
  }

  private static Charset charset(String contentType) {
    Matcher matcher = CHARSET.matcher(contentType);
    if (matcher.find()) {
      try {
        return Charset.forName(matcher.group(1));
      } catch (IllegalArgumentException e) {
        return StandardCharsets.UTF_8;
      }
    }
    return StandardCharsets.UTF_8;
  }

}
