package dev.roundhouse.calendaragent;

import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.spi.TurnContributor;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.time.ZoneOffset;

/**
 * Makes a task a calendar conversation: a task tagged {@value #TAG}, or any task of a project named in the
 * settings, is run by whatever driver the task names, with the calendar prompt as its system prompt (in place
 * of a driver's coding instructions, and with no workspace tools: see {@link TurnContributor#systemPrompt}),
 * the facts of the moment (now, weekday, the user's zone and clock, active categories, calendars) added to
 * every turn's context, and the calendar operations offered to its agent as tools.
 *
 * <p>Thread-safe: immutable; every turn reads the prompt and the calendars afresh.
 */
final class CalendarConversation implements TurnContributor {
  /** The task tag that makes a task a calendar conversation. */
  static final String TAG = "calendar";

  /** The operations a calendar conversation's agent may call: the queries, the stages and browse. */
  static final Set<String> AGENT_TOOLS = Set.of(
      "calendar_list", "calendar_events", "calendar_search", "calendar_free_busy", "calendar_event",
      "calendar_stage_create", "calendar_stage_batch_create", "calendar_stage_update", "calendar_stage_delete",
      "calendar_browse");

  private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd", Locale.ROOT);
  private static final DateTimeFormatter H24 = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT);
  private static final DateTimeFormatter H12 = DateTimeFormatter.ofPattern("h:mm a", Locale.ENGLISH);

  private final ConversationSettings settings;
  private final CalendarPrompt prompt;
  private final CalendarStore store;
  private final CalendarQueries queries;
  private final Supplier<Clock> clock;

  CalendarConversation(ConversationSettings settings, CalendarPrompt prompt, CalendarStore store, CalendarQueries queries, Supplier<Clock> clock) {
    this.settings = settings;
    this.prompt = prompt;
    this.store = store;
    this.queries = queries;
    this.clock = clock;
  }

  @Override
  public boolean owns(Project project, Task task) {
    return task.tags().contains(TAG) || settings.projects().contains(project.name());
  }

  @Override
  public Set<String> agentTools() {
    return AGENT_TOOLS;
  }

  /** The calendar prompt: a calendar conversation is not coding work, so it replaces a driver's coding instructions. */
  @Override
  public Optional<String> systemPrompt(Project project, Task task) {
    return Optional.of(prompt.read().text().strip());
  }

  /** The facts of the moment, after the task in the turn's context. */
  @Override
  public String turnContext(Project project, Task task) {
    return facts();
  }

  /** The facts of this moment, one line each; what the model cannot know by itself. */
  String facts() {
    Clock now = clock.get();
    ZoneId zone = settings.zone() != null ? settings.zone() : now.getZone();
    if (zone.equals(ZoneOffset.UTC)) {
      zone = Times.UTC; // a UTC clock (Clock.systemUTC) says Z; tools and people read UTC
    }
    ZonedDateTime local = now.instant().truncatedTo(ChronoUnit.SECONDS).atZone(zone);
    DateTimeFormatter time = settings.twelveHour() ? H12 : H24;
    StringBuilder facts = new StringBuilder("# Calendar context (at the start of this turn)\n\n");
    facts.append("- Now: ").append(local.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH)).append(' ')
        .append(DATE.format(local)).append(' ').append(time.format(local))
        .append(" in ").append(zone.getId()).append(" (UTC").append(offset(local)).append("), ")
        .append(local.toInstant()).append('\n');
    facts.append("- The user's time zone: ").append(zone.getId())
        .append("; write times for tools like ").append(DATE.format(local)).append('T').append(H24.format(local))
        .append('[').append(zone.getId()).append("]\n");
    facts.append("- The user's clock: ").append(settings.twelveHour() ? "12-hour (write 2:30 PM)" : "24-hour (write 14:30)").append('\n');
    facts.append("- Active categories: ").append(categories()).append('\n');
    List<CalendarSource> sources = store.sources();
    facts.append("- Writable calendars: ").append(calendars(sources, true)).append('\n');
    facts.append("- Read-only calendars: ").append(calendars(sources, false)).append('\n');
    return facts.toString();
  }

  private static String offset(ZonedDateTime local) {
    String id = local.getOffset().getId();
    return id.equals("Z") ? "+00:00" : id;
  }

  private String categories() {
    try {
      List<String> categories = queries.list().categories();
      return categories.isEmpty() ? "none yet" : String.join(", ", categories);
    } catch (RuntimeException e) {
      // a calendar that cannot be read (a CalDAV server down) must not stop the conversation
      String reason = e instanceof UncheckedIOException io && io.getCause() != null ? io.getCause().getMessage() : e.getMessage();
      return "unknown (the calendars could not be read: " + reason + "); ask calendar_list later";
    }
  }

  private static String calendars(List<CalendarSource> sources, boolean writable) {
    String listed = sources.stream().filter(source -> source.writable() == writable)
        .map(source -> source.id() + " (" + source.zone().getId() + ")").collect(Collectors.joining(", "));
    return listed.isEmpty() ? "none" : listed;
  }
}
