package dev.roundhouse.calendaragent;

import dev.roundhouse.calendaragent.CalendarOps.Audit;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.spi.ExtensionResource;
import dev.roundhouse.hub.spi.ExtensionResource.Contents;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The calendar agent's resources: the calendars, one calendar, the active categories, the audit trail and the
 * conversation prompt (in effect, and as bundled). Each shows what its operation answers and follows that
 * operation's rules (an agent reads the calendars only in a calendar conversation, never the audit or the
 * prompt). Every read, answered or refused, is audited as {@value #AUDITED}, except a read of the audit.
 * Which changes notify which of them: {@link CalendarResourceChanges}.
 *
 * <p>Thread-safe: stateless beyond the queries, the audit and the prompt, which are.
 */
final class CalendarResources {
  static final String CALENDARS = "roundhouse://calendars";
  static final String CALENDAR = "roundhouse://calendars/{calendar}";
  static final String CATEGORIES = "roundhouse://calendar/categories";
  static final String AUDIT = "roundhouse://calendar/audit";
  static final String PROMPT = "roundhouse://calendar/prompt";
  static final String BUNDLED_PROMPT = "roundhouse://calendar/prompt/bundled";
  /** The audit entry's operation for a resource read. */
  static final String AUDITED = "resource_read";

  private static final String JSON = "application/json";
  private static final String MARKDOWN = "text/markdown";

  /** The active categories, {@code Category - SubCategory}. */
  record Categories(List<String> categories) {}

  private final CalendarQueries queries;
  private final CalendarAudit audit;
  private final CalendarPrompt prompt;

  /** The URI of one calendar, {@link #CALENDAR} with its id. */
  static String calendar(String id) {
    return "roundhouse://calendars/" + id;
  }

  CalendarResources(CalendarQueries queries, CalendarAudit audit, CalendarPrompt prompt) {
    this.queries = queries;
    this.audit = audit;
    this.prompt = prompt;
  }

  List<ExtensionResource> resources() {
    return List.of(
        audited(new ExtensionResource(CALENDARS, "calendars", "Calendars",
            "The configured calendars (id, writable, zone, events, categories) and the active categories (operation calendar_list).",
            JSON, "calendar_list", (actor, uri, variables) -> json(queries.list()))),
        audited(new ExtensionResource(CALENDAR, "calendar", "A calendar",
            "One configured calendar by id: writable, zone, number of events, its categories (as in calendar_list).",
            JSON, "calendar_list", (actor, uri, variables) -> json(queries.info(variables.get("calendar"))))
            .withCompleter((actor, variable) -> queries.list().calendars().stream().map(CalendarOps.CalendarInfo::id).toList())),
        audited(new ExtensionResource(CATEGORIES, "calendar-categories", "Calendar categories",
            "The active title categories of all calendars ('Category - SubCategory'), for titles 'Category - SubCategory - Title'.",
            JSON, "calendar_list", (actor, uri, variables) -> json(new Categories(queries.list().categories())))),
        new ExtensionResource(AUDIT, "calendar-audit", "Calendar audit",
            "The calendar agent's audit trail, newest first: every query, stage, answer, browse and resource read (operation calendar_audit).",
            JSON, "calendar_audit", (actor, uri, variables) -> json(new Audit(audit.newest(CalendarAudit.DEFAULT_CAP)))),
        audited(new ExtensionResource(PROMPT, "calendar-prompt", "Calendar prompt",
            "The calendar conversation's system prompt in effect: the bundled one, or your override in the Roundhouse home"
                + " (calendar-prompt.md); _meta names its version and source.",
            MARKDOWN, "calendar_prompt", (actor, uri, variables) -> promptInEffect())),
        audited(new ExtensionResource(BUNDLED_PROMPT, "calendar-prompt-bundled", "Bundled calendar prompt",
            "The calendar prompt this build ships, to start an override from or to compare yours with after an upgrade.",
            MARKDOWN, "calendar_prompt", (actor, uri, variables) -> bundledPrompt())));
  }

  private Contents promptInEffect() {
    CalendarOps.Prompt info = prompt.info();
    Map<String, String> meta = new LinkedHashMap<>();
    if (info.version() != null) {
      meta.put("version", info.version());
    }
    meta.put("source", info.source());
    meta.put("path", info.path());
    meta.put("bundled_version", info.bundledVersion());
    if (info.note() != null) {
      meta.put("note", info.note());
    }
    return new Contents(MARKDOWN, info.text(), meta);
  }

  private static Contents bundledPrompt() {
    String text = CalendarPrompt.bundled();
    return new Contents(MARKDOWN, text, CalendarPrompt.version(text).map(version -> Map.of("version", version)).orElse(Map.of()));
  }

  private static Contents json(Object value) {
    return new Contents(JSON, Json.write(value), Map.of());
  }

  /** {@code resource} with every read, answered or refused, audited. */
  private ExtensionResource audited(ExtensionResource resource) {
    ExtensionResource.Reader reader = resource.reader();
    return resource.withReader((actor, uri, variables) -> {
      try {
        Contents contents = reader.read(actor, uri, variables);
        audit.record(AUDITED, actor, uri + " -> " + contents.text().length() + " characters");
        return contents;
      } catch (RoundhouseException e) {
        audit.record(AUDITED, actor, uri + " refused: " + e.getMessage());
        throw e;
      }
    });
  }
}
