package dev.roundhouse.calendaragent;

import dev.roundhouse.calendaragent.CalendarOps.Audit;
import dev.roundhouse.calendaragent.CalendarOps.AuditInput;
import dev.roundhouse.calendaragent.CalendarOps.Browse;
import dev.roundhouse.calendaragent.CalendarOps.BrowseInput;
import dev.roundhouse.calendaragent.CalendarOps.Calendars;
import dev.roundhouse.calendaragent.CalendarOps.DiscoverInput;
import dev.roundhouse.calendaragent.CalendarOps.Discovered;
import dev.roundhouse.calendaragent.CalendarOps.EventDetail;
import dev.roundhouse.calendaragent.CalendarOps.EventInput;
import dev.roundhouse.calendaragent.CalendarOps.Events;
import dev.roundhouse.calendaragent.CalendarOps.FreeBusy;
import dev.roundhouse.calendaragent.CalendarOps.FreeBusyInput;
import dev.roundhouse.calendaragent.CalendarOps.NoInput;
import dev.roundhouse.calendaragent.CalendarOps.RangeInput;
import dev.roundhouse.calendaragent.CalendarOps.SearchInput;
import dev.roundhouse.calendaragent.CalendarOps.StageBatchCreate;
import dev.roundhouse.calendaragent.CalendarOps.StageCreate;
import dev.roundhouse.calendaragent.CalendarOps.StageDelete;
import dev.roundhouse.calendaragent.CalendarOps.StageUpdate;
import dev.roundhouse.calendaragent.CalendarOps.Staged;
import dev.roundhouse.calendaragent.CalendarOps.StagedBatch;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.ops.Operation;
import dev.roundhouse.hub.ops.OperationAnnotations;
import dev.roundhouse.hub.ops.OperationRegistry;

/**
 * The calendar agent's operations, as every face offers them: names, descriptions, schemas (from
 * {@link CalendarOps}) and handlers. Every call, answered or refused, is audited, except the audit read.
 *
 * @param queries the read-only queries
 * @param creates new-event proposals
 * @param updates change proposals
 * @param deletes delete proposals
 * @param browse the guarded web fetch
 * @param audit the audit trail
 * @param prompt the conversation's prompt
 * @param discovery CalDAV discovery, for people configuring calendars
 */
record CalendarOperations(CalendarQueries queries, CreateProposals creates, UpdateProposals updates, DeleteProposals deletes,
    CalendarBrowse browse, CalendarAudit audit, CalendarPrompt prompt, CalendarDiscovery discovery) {

  /** Registers every calendar operation in {@code registry}. */
  void register(OperationRegistry registry) {
    add(registry, Operation.of("calendar_list",
        "The configured calendars (id, writable, zone) and the active title categories ('Category - SubCategory').",
        NoInput.class, Calendars.class, OperationAnnotations.READ, (actor, in) -> queries.list()));
    add(registry, Operation.of("calendar_events",
        "Occurrences in [from, to) with recurrence expanded (RRULE, RDATE, EXDATE, moved and cancelled overrides);"
            + " times need an explicit zone, e.g. 2026-03-02T00:00[Europe/Berlin]. Omit calendar for all.",
        RangeInput.class, Events.class, OperationAnnotations.READ, (actor, in) -> queries.events(in)));
    add(registry, Operation.of("calendar_search",
        "Occurrences whose title, category, location or description contains text (case-insensitive);"
            + " the range defaults to a year either side of now.",
        SearchInput.class, Events.class, OperationAnnotations.READ, (actor, in) -> queries.search(in)));
    add(registry, Operation.of("calendar_free_busy",
        "Busy intervals in [from, to), merged across calendars (transparent and cancelled events are free).",
        FreeBusyInput.class, FreeBusy.class, OperationAnnotations.READ, (actor, in) -> queries.freeBusy(in)));
    add(registry, Operation.of("calendar_event",
        "One event by calendar and UID: its rule, its raw ICS and, with recurrence_id, that occurrence.",
        EventInput.class, EventDetail.class, OperationAnnotations.READ, (actor, in) -> queries.event(in)));
    add(registry, Operation.of("calendar_stage_create",
        "Propose a new event; nothing is written until a person approves the decision. Title: 'Category - SubCategory - Title'.",
        StageCreate.class, Staged.class, OperationAnnotations.CREATE, (actor, in) -> creates.stage(actor, in)));
    add(registry, Operation.of("calendar_stage_batch_create",
        "Propose several new events at once (all validated first); each becomes its own decision.",
        StageBatchCreate.class, StagedBatch.class, OperationAnnotations.CREATE, (actor, in) -> creates.stageBatch(actor, in)));
    add(registry, Operation.of("calendar_stage_update",
        "Propose changing an event; a recurring one needs scope 'this' (one occurrence, by recurrence_id), 'following'"
            + " (this and following, from recurrence_id) or 'all' (start moves the whole series). Nothing changes until a person approves.",
        StageUpdate.class, Staged.class, OperationAnnotations.CREATE, (actor, in) -> updates.stage(actor, in)));
    add(registry, Operation.of("calendar_stage_delete",
        "Propose deleting an event: scope 'all' (default, the whole series), 'this' (one occurrence, by recurrence_id)"
            + " or 'following' (this and following, from recurrence_id)."
            + " Nothing is removed until a person approves.",
        StageDelete.class, Staged.class, OperationAnnotations.CREATE, (actor, in) -> deletes.stage(actor, in)));
    add(registry, Operation.of("calendar_browse",
        "Fetch one public web page or iCalendar file (http/https; private and local addresses are refused): HTML as clean"
            + " text (at most 100,000 characters), an .ics as events you can stage. Stage nothing without the user asking.",
        BrowseInput.class, Browse.class, OperationAnnotations.READ, (actor, in) -> browse.browse(in)));
    registry.register(Operation.of("calendar_audit",
        "The calendar agent's audit trail, newest first: every query, stage, approval and rejection (operation, actor, time, summary).",
        AuditInput.class, Audit.class, OperationAnnotations.READ,
        (actor, in) -> new Audit(audit.newest(in == null || in.limit() == null ? CalendarAudit.DEFAULT_CAP : Math.max(1, in.limit())))));
    add(registry, Operation.of("calendar_prompt",
        "The calendar conversation's system prompt in effect (bundled, or the user's override in the Roundhouse home) with its version.",
        NoInput.class, CalendarOps.Prompt.class, OperationAnnotations.READ, (actor, in) -> prompt.info()));
    add(registry, Operation.of("calendar_discover",
        "Find your calendar collections on a CalDAV server (url, user, and password_env or password_file naming where the"
            + " password is; never the password) and list them with a calendars.json entry each. People only; nothing is saved.",
        DiscoverInput.class, Discovered.class, OperationAnnotations.READ, (actor, in) -> discovery.discover(actor, in)));
  }

  /** Registers {@code operation} so that every call, answered or refused, is audited. */
  private <I, O> void add(OperationRegistry registry, Operation<I, O> operation) {
    registry.register(Operation.of(operation.name(), operation.description(), operation.inputType(), operation.outputType(),
        operation.annotations(), (actor, in) -> {
          try {
            O out = operation.handler().apply(actor, in);
            audit.record(operation.name(), actor, summary(in, out));
            return out;
          } catch (RoundhouseException e) {
            audit.record(operation.name(), actor, "refused: " + e.getMessage() + " (" + Json.write(in) + ")");
            throw e;
          }
        }));
  }

  private static String summary(Object in, Object out) {
    String input = Json.write(in);
    return switch (out) {
      case Events events -> input + " -> " + events.count() + " occurrences" + (events.capped() ? " (capped)" : "");
      case Staged staged -> "decision " + staged.decision() + ": " + staged.title() + (staged.duplicates().isEmpty() ? "" : " (possible duplicate)");
      case StagedBatch batch -> "decisions " + batch.proposals().stream().map(p -> String.valueOf(p.decision())).toList();
      case FreeBusy busy -> input + " -> " + busy.busy().size() + " busy intervals";
      case Discovered found -> input + " -> " + found.calendars().size() + " calendars";
      case Browse page -> input + " -> " + page.status() + " " + page.kind() + " from " + page.url()
          + (page.redirects().isEmpty() ? "" : " after " + page.redirects().size() + " redirects")
          + (page.events() == null ? ", " + page.text().length() + " characters" : ", " + page.events().size() + " events");
      default -> input;
    };
  }
}
