package dev.roundhouse.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hubclient.SseReader;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse events}: prints the events after {@code --after N} and exits, or with {@code --follow}
 * keeps printing live ones, reconnecting after a drop without missing any (see {@link EventFeed}). With
 * {@code --json} each event is printed as the hub sent it, one JSON object per line.
 *
 * <p>Not thread-safe: picocli fills it and runs it once, on one thread.
 */
@Command(
    name = "events",
    description = "Print the hub's events after a sequence number; --follow keeps printing live ones.",
    mixinStandardHelpOptions = true)
final class EventsCommand implements Callable<Integer> {
  static final Duration RETRY_DELAY = Duration.ofSeconds(1);

  private final Context context;

  @Spec CommandSpec spec;

  @Mixin JsonOption json;

  @Option(names = "--after", paramLabel = "N", description = "Start after this sequence number (default 0: everything).")
  long after;

  @Option(names = "--follow", description = "Keep printing live events until interrupted; reconnects after a drop.")
  boolean follow;

  EventsCommand(Context context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    if (after < 0) {
      throw new ParameterException(spec.commandLine(), "--after must be 0 or more, not " + after);
    }
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    try (EventFeed feed =
        new EventFeed(
            () -> HubEndpoint.locate(context),
            RETRY_DELAY,
            notice -> {
              err.println("roundhouse: " + notice);
              err.flush();
            })) {
      feed.run(after, follow, message -> {
        out.println(json.enabled ? message.data() : text(message));
        out.flush();
      });
    }
    return ExitCode.OK.status();
  }

  private static String text(SseReader.Message message) {
    try {
      JsonNode event = Json.mapper().readTree(message.data());
      return EventText.line(event);
    } catch (JsonProcessingException e) {
      return message.id() + "  " + message.event() + "  " + message.data();
    }
  }
}
