package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.HomeLock;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.LocalToken;
import dev.roundhouse.hubclient.HubAddress;
import dev.roundhouse.hubclient.HubHttp;
import dev.roundhouse.hubclient.HubUnavailableException;
import dev.roundhouse.hubclient.RemoteHub;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where the running hub listens and the token it expects. The URL is {@code ROUNDHOUSE_URL} when set, else
 * the {@code url} the hub recorded in its lock file ({@code $ROUNDHOUSE_HOME/hub.lock}), which counts only
 * while a process holds the lock. The token is {@code ROUNDHOUSE_TOKEN} when set, else read from
 * {@code $ROUNDHOUSE_HOME/token}. {@link #connect()}
 * opens the typed client there; {@link #failure} is how the CLI reports a hub it cannot reach. Immutable.
 *
 * @param url the base URL, without a trailing slash
 * @param token the bearer token
 * @param home the Roundhouse home it was found through
 * @param fromVariable true when the URL came from {@code ROUNDHOUSE_URL}
 */
record HubEndpoint(String url, String token, Path home, boolean fromVariable) {

  static final String URL_VARIABLE = "ROUNDHOUSE_URL";
  /** The token to send instead of the home's token file (for a hub on another machine). */
  static final String TOKEN_VARIABLE = "ROUNDHOUSE_TOKEN";
  /** How long the CLI waits for an operation's answer. */
  static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(60);

  /**
   * Finds the hub for this context.
   *
   * @throws CliFailure with {@link ExitCode#NO_HUB} when no hub holds the home's lock
   */
  static HubEndpoint locate(Context context) {
    return locate(context, null, null);
  }

  /**
   * Finds the hub for this context, with a URL and a token given on the command line taking the place of
   * {@code ROUNDHOUSE_URL} and of {@code ROUNDHOUSE_TOKEN} or the home's token file.
   *
   * @param url the hub's URL, or null for the usual search
   * @param token the bearer token, or null for {@code ROUNDHOUSE_TOKEN}, else the home's token file
   * @throws CliFailure with {@link ExitCode#NO_HUB} when no hub holds the home's lock
   */
  static HubEndpoint locate(Context context, String url, String token) {
    HubEndpoint found = url != null ? new HubEndpoint(url.replaceAll("/+$", ""), null, context.hubConfig().home(), true) : search(context);
    String bearer = token != null ? token
        : context.variable(TOKEN_VARIABLE).orElseGet(() -> found.token() != null ? found.token() : token(context.hubConfig().tokenFile()));
    return new HubEndpoint(found.url(), bearer, found.home(), found.fromVariable());
  }

  /** The URL from {@code ROUNDHOUSE_URL} or the lock file; the token is left to {@link #locate(Context, String, String)}. */
  private static HubEndpoint search(Context context) {
    HubConfig config = context.hubConfig();
    Path home = config.home();
    String url;
    boolean fromVariable = context.variable(URL_VARIABLE).isPresent();
    if (fromVariable) {
      url = context.variable(URL_VARIABLE).orElseThrow();
    } else {
      Path lock = config.lockFile();
      if (!HomeLock.isHeld(lock)) {
        throw notRunning(home);
      }
      JsonNode holder = HomeLock.readHolder(lock).orElse(null);
      if (holder == null || !holder.path("url").isTextual()) {
        throw new CliFailure(
            ExitCode.NO_HUB,
            "hub_starting",
            "the hub for " + home
                + (holder == null ? "" : " (pid " + holder.path("pid").asText("?") + ")")
                + " has not published its URL yet; try again in a moment");
      }
      url = holder.get("url").asText();
    }
    return new HubEndpoint(url.replaceAll("/+$", ""), null, home, fromVariable);
  }

  /** The failure for a home no hub is running for. */
  static CliFailure notRunning(Path home) {
    return new CliFailure(
        ExitCode.NO_HUB,
        "hub_not_running",
        "no hub is running for " + home + "; start one with ./roundhouse serve");
  }

  /** The failure for a hub that does not accept connections at {@link #url}. */
  CliFailure unreachable(String reason) {
    String message =
        fromVariable
            ? "no hub answers at " + url + " (" + URL_VARIABLE + "): " + reason
            : "no hub is running for " + home + " (nothing answers at " + url + ": " + reason
                + "); start one with ./roundhouse serve";
    return new CliFailure(ExitCode.NO_HUB, "hub_unreachable", message);
  }

  /**
   * The typed client of the hub here, sending {@code User-Agent: roundhouse-cli}; close it when done, which
   * stops its threads and aborts any response still being read. Its failures are the client's: report a
   * {@link HubUnavailableException} with {@link #failure}; a hub error answer exits 1 with the hub's sentence.
   */
  RemoteHub connect() {
    HubAddress address = new HubAddress(url, token);
    return RemoteHub.connect(() -> address, "roundhouse-cli", OPERATION_TIMEOUT);
  }

  /**
   * A hub that cannot be reached here, as the CLI reports it: exit {@link ExitCode#NO_HUB}, except an
   * interrupted wait (exit 1).
   */
  CliFailure failure(HubUnavailableException e) {
    return switch (e.reason()) {
      case REFUSED -> unreachable("connection refused");
      case NO_CONNECTION -> unreachable("no connection within " + HubHttp.CONNECT_TIMEOUT.toSeconds() + " s");
      case INTERRUPTED -> new CliFailure(ExitCode.FAILED, "interrupted", e.getMessage(), e);
      case NOT_FOUND, LOST -> new CliFailure(ExitCode.NO_HUB, "hub_unreachable", e.getMessage(), e);
    };
  }

  private static String token(Path file) {
    try {
      return LocalToken.read(file);
    } catch (NoSuchFileException e) {
      throw new CliFailure(
          ExitCode.FAILED,
          "no_token",
          "no token file " + file + "; the hub creates it when it starts (is ROUNDHOUSE_HOME the hub's home?)");
    } catch (IOException e) {
      throw new CliFailure(ExitCode.FAILED, "no_token", "cannot read the token " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "HubEndpoint[" + url + ", home " + home + "]"; // never the token
  }
}
