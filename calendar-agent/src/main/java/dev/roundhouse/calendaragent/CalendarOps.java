package dev.roundhouse.calendaragent;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** Inputs and outputs of the calendar operations; their JSON schemas are derived from these records. */
final class CalendarOps {
  private CalendarOps() {}

  record NoInput() {}

  record CalendarInfo(String id, boolean writable, String zone, int events, List<String> categories) {}

  record Calendars(List<CalendarInfo> calendars, List<String> categories) {}

  record RangeInput(
      String calendar,
      @JsonProperty(required = true) String from,
      @JsonProperty(required = true) String to,
      Integer limit) {}

  /**
   * Occurrences, at most the limit asked: {@code capped} when more exist, then {@code next_from} is the start of the
   * first left out (null when a clamped sub-daily rule capped it); {@code warnings} names events (and, over all
   * calendars, calendars) that could not be read and were left out, such as an unknown TZID without VTIMEZONE.
   */
  record Events(List<Occurrence> events, int count, boolean capped, String note, String nextFrom, List<String> warnings) {}

  record SearchInput(@JsonProperty(required = true) String text, String calendar, String from, String to, Integer limit) {}

  record FreeBusyInput(String calendar, @JsonProperty(required = true) String from, @JsonProperty(required = true) String to) {}

  record Busy(String start, String end) {}

  /** Busy intervals; {@code capped}, {@code next_from} and {@code warnings} as for {@link Events}. */
  record FreeBusy(String from, String to, List<Busy> busy, boolean capped, String nextFrom, List<String> warnings) {}

  record EventInput(@JsonProperty(required = true) String calendar, @JsonProperty(required = true) String uid, String recurrenceId) {}

  record EventDetail(String calendar, String uid, String title, String rrule, boolean recurring, int overrides, Occurrence occurrence, String ics) {}

  /**
   * A new event. Timed: {@code start}/{@code end} with explicit zones ({@code 2026-03-02T09:00[Europe/Berlin]}).
   * All-day: {@code all_day} true and dates ({@code 2026-03-05}), {@code end} exclusive and optional.
   */
  record StageCreate(
      @JsonProperty(required = true) String calendar,
      @JsonProperty(required = true) String title,
      @JsonProperty(required = true) String start,
      String end,
      Boolean allDay,
      String location,
      String description) {}

  record StageBatchCreate(@JsonProperty(required = true) List<StageCreate> events) {}

  /**
   * Remove an event. {@code scope}: {@code all} (default: the whole series with its overrides),
   * {@code this} (one occurrence, named by {@code recurrence_id}: an EXDATE on the series) or {@code following}
   * (this and following: the series ends before {@code recurrence_id}).
   */
  record StageDelete(
      @JsonProperty(required = true) String calendar,
      @JsonProperty(required = true) String uid,
      String scope,
      String recurrenceId) {}

  /**
   * Change an event. For a recurring event {@code scope} is required: {@code this} (one occurrence, named by
   * {@code recurrence_id}: written as a RECURRENCE-ID override), {@code following} (this and following: the
   * series is split at {@code recurrence_id} and the rest becomes a new series with a new UID) or {@code all}
   * (the whole series; {@code start} moves the occurrence named by {@code recurrence_id}, or the first one, and
   * every other occurrence by the same wall-clock shift). Absent fields stay as they are.
   */
  record StageUpdate(
      @JsonProperty(required = true) String calendar,
      @JsonProperty(required = true) String uid,
      String scope,
      String recurrenceId,
      String title,
      String start,
      String end,
      String location,
      String description) {}

  /** A staged proposal: a pending decision; nothing is written until a person approves it. */
  record Staged(long decision, String status, String calendar, String uid, String title, List<Occurrence> duplicates) {}

  record StagedBatch(List<Staged> proposals) {}

  record BrowseInput(@JsonProperty(required = true) String url) {}

  /**
   * A fetched page: {@code kind} html (clean text), text, or calendar (then {@code events} lists what it
   * holds, to stage with calendar_stage_create after giving each a 'Category - SubCategory - Title').
   */
  record Browse(String url, List<String> redirects, int status, String kind, String title, String text, boolean truncated,
      List<IcsImport.Found> events, String note) {}

  /**
   * The calendar conversation's system prompt in effect: {@code source} {@code bundled} or {@code override}
   * (the file at {@code path}), its {@code version} and the bundled one's.
   */
  record Prompt(String version, String source, String path, String bundledVersion, String note, String text) {}

  /**
   * Where to look for calendars: a server ({@code https://dav.example.org/}), a principal or a calendar home,
   * the user, and where the password is: {@code password_env} (an environment variable of the hub) or
   * {@code password_file} (an absolute path to a file of mode 0600), exactly one. Never the password itself.
   */
  record DiscoverInput(
      @JsonProperty(required = true) String url,
      @JsonProperty(required = true) String user,
      String passwordEnv,
      String passwordFile) {}

  /** A suggested {@code calendars.json} entry for a calendar found. */
  record CalendarConfig(String id, String url, String user, String passwordEnv, String passwordFile, boolean writable, String zone) {}

  /**
   * A calendar collection found: {@code events} whether it holds events (VEVENT), {@code read_only} from the
   * server's privileges (null when it does not say), {@code configured_as} the id of the configured calendar
   * with this URL, {@code config} an entry to add to calendars.json (null for a collection without events).
   */
  record DiscoveredCalendar(String url, String name, List<String> components, boolean events, Boolean readOnly, String zone,
      String configuredAs, CalendarConfig config) {}

  /** What discovery found, with the steps it took. */
  record Discovered(String server, String principal, List<String> homes, List<DiscoveredCalendar> calendars, List<String> steps,
      String note) {}

  record AuditInput(Integer limit) {}

  record Audit(List<CalendarAudit.Entry> entries) {}
}
