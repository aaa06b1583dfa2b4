package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hubclient.HubAddress;
import dev.roundhouse.hubclient.HubHttp;
import dev.roundhouse.hubclient.HubUnavailableException;
import java.io.InputStream;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The CLI's connection to a running hub: {@link HubHttp} (operations as {@code POST /api/ops/{name}}, the
 * event streams) at the endpoint the CLI found, with its failures as the CLI reports them. A hub error
 * answer becomes a {@link CliFailure} carrying the hub's message (exit 1); a hub that cannot be reached
 * becomes one with {@link ExitCode#NO_HUB}; a timeout or an interrupted wait exits 1.
 *
 * <p>Thread-safe (one {@link HubHttp}); close it when done, which stops the client's threads and aborts
 * any response still being read.
 */
final class HubClient implements AutoCloseable {
  static final Duration OPERATION_TIMEOUT = Duration.ofSeconds(60);

  private final HubEndpoint endpoint;
  private final HubHttp http;

  HubClient(HubEndpoint endpoint) {
    this.endpoint = endpoint;
    HubAddress address = new HubAddress(endpoint.url(), endpoint.token());
    this.http = new HubHttp(() -> address, "roundhouse-cli", OPERATION_TIMEOUT);
  }

  /** Finds the hub for {@code context} and connects to it. */
  static HubClient attach(Context context) {
    return new HubClient(HubEndpoint.locate(context));
  }

  HubEndpoint endpoint() {
    return endpoint;
  }

  /**
   * Calls operation {@code name}.
   *
   * @param input a record of the operation's input (serialized with the hub's JSON settings), or null
   * @return the operation's output as the hub sent it
   */
  JsonNode call(String name, Object input) {
    return reported(() -> http.callTree(name, input));
  }

  /**
   * Opens the event stream: every event after {@code after}, and then live ones unless {@code follow} is
   * false ({@code follow=false}: the hub ends the response once the replay has caught up).
   *
   * @param lastEventId sent as {@code Last-Event-ID} when resuming after a drop; the hub prefers it to
   *     {@code after}
   */
  InputStream openEvents(long after, boolean follow, Long lastEventId) {
    return reported(() -> http.openEvents(after, follow, lastEventId));
  }

  /**
   * Opens one task's event stream ({@code GET /api/tasks/{id}/stream}): its current generation's events,
   * then live ones, text deltas included (those come without an id). Returns once the hub is subscribed.
   */
  InputStream openTaskEvents(long task) {
    return reported(() -> http.openTaskEvents(task, null));
  }

  /** Runs a hub call, turning its failure into the CLI's. */
  private <T> T reported(Supplier<T> call) {
    try {
      return call.get();
    } catch (HubUnavailableException e) {
      throw switch (e.reason()) {
        case REFUSED -> endpoint.unreachable("connection refused");
        case NO_CONNECTION -> endpoint.unreachable("no connection within " + HubHttp.CONNECT_TIMEOUT.toSeconds() + " s");
        case INTERRUPTED -> new CliFailure(ExitCode.FAILED, "interrupted", e.getMessage(), e);
        case NOT_FOUND, LOST -> new CliFailure(ExitCode.NO_HUB, "hub_unreachable", e.getMessage(), e);
      };
    } catch (RoundhouseException e) {
      throw new CliFailure(ExitCode.FAILED, e.code(), e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    http.close();
  }
}
