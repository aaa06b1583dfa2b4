package dev.roundhouse.services.hub;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.services.Scheduler;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Tells resource subscribers that a service's log grew, at most once per {@code interval} per log: the first
 * new line marks the log and schedules one notice; the lines that follow within the interval ride on it. The
 * notice itself goes out on a scheduler thread, so a service's output reader never waits for it.
 *
 * <p>Thread-safe: a concurrent set of marked logs, no lock.
 */
final class LogChanges {
  /** The URI template of a service's log. */
  static final String LOG = "roundhouse://services/{project}/{service}/log";

  private final Scheduler scheduler;
  private final Duration interval;
  private final Consumer<String> notify;
  private final Set<String> pending = ConcurrentHashMap.newKeySet();
  private final ConcurrentHashMap<String, ConcurrentHashMap<String, String>> uris = new ConcurrentHashMap<>();

  /**
   * @param notify receives a concrete log URI when its log changed (the extension calls
   *     {@code ExtensionContext.resourcesChanged})
   */
  LogChanges(Scheduler scheduler, Duration interval, Consumer<String> notify) {
    this.scheduler = scheduler;
    this.interval = interval;
    this.notify = notify;
  }

  static String uri(String project, String service) {
    return "roundhouse://services/" + URLEncoder.encode(project, StandardCharsets.UTF_8).replace("+", "%20") + "/" + service + "/log";
  }

  void logged(String project, String service) {
    String uri = uris.computeIfAbsent(project, name -> new ConcurrentHashMap<>())
        .computeIfAbsent(service, name -> uri(project, name)); // called for every line: no encoding each time
    if (!pending.contains(uri) && pending.add(uri)) { // contains first: add locks the map's bin even when present
      scheduler.schedule(interval, () -> {
        pending.remove(uri);
        notify.accept(uri);
      });
    }
  }

  /** The actor of log notices: the service's own output, which no person or agent wrote. */
  static Actor actor() {
    return Actor.SCHEDULER;
  }
}
