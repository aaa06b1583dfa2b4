package dev.roundhouse.calendaragent;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.calendaragent.CalendarOps.Audit;
import dev.roundhouse.calendaragent.CalendarOps.AuditInput;
import dev.roundhouse.calendaragent.CalendarOps.Browse;
import dev.roundhouse.calendaragent.CalendarOps.BrowseInput;
import dev.roundhouse.calendaragent.CalendarOps.Busy;
import dev.roundhouse.calendaragent.browse.WebBrowser;
import dev.roundhouse.calendaragent.CalendarOps.Calendars;
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
import dev.roundhouse.hub.Actor;
import dev.roundhouse.hub.Json;
import dev.roundhouse.hub.RoundhouseException;
import dev.roundhouse.hub.decisions.Decision;
import dev.roundhouse.hub.ext.DecisionDesk;
import dev.roundhouse.hub.ext.ExtensionContext;
import dev.roundhouse.hub.ext.HubExtension;
import dev.roundhouse.hub.ops.Operation;
import dev.roundhouse.hub.ops.OperationAnnotations;
import dev.roundhouse.hub.ops.OperationRegistry;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The calendar agent's hub extension: read-only query operations over the configured calendars, and
 * proposals ({@code calendar_stage_*}) that open decisions of kind {@value #KIND}. Only a person's
 * approval commits a proposal, exactly once: a created event's UID is derived from the decision id, so a
 * retried commit finds it and writes nothing.
 *
 * <p>Thread-safe: the store serialises writes per calendar; everything else is immutable.
 */
public final class CalendarExtension implements HubExtension {
  /** The decision kind of calendar proposals. */
  public static final String KIND = "calendar_proposal";

  static final List<String> OPTIONS = List.of("approve", "reject");

  private final CalendarStore store;
  private final AtomicReference<HttpClient> http = new AtomicReference<>();
  private final AtomicReference<Clock> clock = new AtomicReference<>(Clock.systemUTC());
  private final AtomicReference<CalendarAudit> audit = new AtomicReference<>();
  private final CalendarQueries queries;
  private final AtomicReference<WebBrowser> browser = new AtomicReference<>();
  private final ConversationSettings conversation;
  private final AtomicReference<CalendarPrompt> prompt = new AtomicReference<>();

  public CalendarExtension(List<CalendarSource> calendars) {
    this(calendars, ConversationSettings.DEFAULTS, null);
  }

  /** With the user's settings for calendar conversations (zone, clock, projects). */
  public CalendarExtension(List<CalendarSource> calendars, ConversationSettings conversation) {
    this(calendars, conversation, null);
  }

  /**
   * With a given browser for {@code calendar_browse} (tests route a public-looking name to a local server
   * through {@link dev.roundhouse.calendaragent.browse.Connector#routedForTests}); null: the real one.
   */
  public CalendarExtension(List<CalendarSource> calendars, WebBrowser browser) {
    this(calendars, ConversationSettings.DEFAULTS, browser);
  }

  /** With conversation settings and a given browser (null: the real one). */
  public CalendarExtension(List<CalendarSource> calendars, ConversationSettings conversation, WebBrowser browser) {
    this.conversation = java.util.Objects.requireNonNull(conversation, "conversation");
    this.browser.set(browser);
    this.store = new CalendarStore(calendars, () -> http.updateAndGet(existing -> existing != null ? existing
        : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).followRedirects(HttpClient.Redirect.NEVER).build()));
    this.queries = new CalendarQueries(store, clock::get);
  }

  @Override
  public String name() {
    return "calendar";
  }

  @Override
  public void close() {
    HttpClient client = http.getAndSet(null);
    if (client != null) {
      client.close();
    }
  }

  /** The store, for tests in this package. */
  CalendarStore store() {
    return store;
  }

  /** The UID of the event a create proposal adds: derived from its decision, so a retry cannot duplicate it. */
  public static String uidFor(long decision) {
    return "roundhouse-proposal-" + decision + "@roundhouse";
  }

  @Override
  public void start(ExtensionContext context) {
    clock.set(context.config().clock());
    audit.set(new CalendarAudit(context.config().home().resolve(CalendarAudit.FILE), CalendarAudit.DEFAULT_CAP, context.config().clock()));
    browser.compareAndSet(null, WebBrowser.create(context.config().clock()));
    DecisionDesk desk = context.decisions();
    var ops = context.operations();
    register(ops, Operation.of("calendar_list",
        "The configured calendars (id, writable, zone) and the active title categories ('Category - SubCategory').",
        NoInput.class, Calendars.class, OperationAnnotations.READ, (actor, in) -> queries.list()));
    register(ops, Operation.of("calendar_events",
        "Occurrences in [from, to) with recurrence expanded (RRULE, RDATE, EXDATE, moved and cancelled overrides);"
            + " times need an explicit zone, e.g. 2026-03-02T00:00[Europe/Berlin]. Omit calendar for all.",
        RangeInput.class, Events.class, OperationAnnotations.READ, (actor, in) -> queries.events(in)));
    register(ops, Operation.of("calendar_search",
        "Occurrences whose title, category, location or description contains text (case-insensitive);"
            + " the range defaults to a year either side of now.",
        SearchInput.class, Events.class, OperationAnnotations.READ, (actor, in) -> queries.search(in)));
    register(ops, Operation.of("calendar_free_busy",
        "Busy intervals in [from, to), merged across calendars (transparent and cancelled events are free).",
        FreeBusyInput.class, FreeBusy.class, OperationAnnotations.READ, (actor, in) -> queries.freeBusy(in)));
    register(ops, Operation.of("calendar_event",
        "One event by calendar and UID: its rule, its raw ICS and, with recurrence_id, that occurrence.",
        EventInput.class, EventDetail.class, OperationAnnotations.READ, (actor, in) -> queries.event(in)));
    register(ops, Operation.of("calendar_stage_create",
        "Propose a new event; nothing is written until a person approves the decision. Title: 'Category - SubCategory - Title'.",
        StageCreate.class, Staged.class, OperationAnnotations.CREATE, (actor, in) -> stageCreate(desk, actor, in)));
    register(ops, Operation.of("calendar_stage_batch_create",
        "Propose several new events at once (all validated first); each becomes its own decision.",
        StageBatchCreate.class, StagedBatch.class, OperationAnnotations.CREATE, (actor, in) -> stageBatch(desk, actor, in)));
    register(ops, Operation.of("calendar_stage_update",
        "Propose changing an event; a recurring one needs scope 'this' (one occurrence, by recurrence_id), 'following'"
            + " (this and following, from recurrence_id) or 'all' (start moves the whole series). Nothing changes until a person approves.",
        StageUpdate.class, Staged.class, OperationAnnotations.CREATE, (actor, in) -> stageUpdate(desk, actor, in)));
    register(ops, Operation.of("calendar_stage_delete",
        "Propose deleting an event: scope 'all' (default, the whole series), 'this' (one occurrence, by recurrence_id)"
            + " or 'following' (this and following, from recurrence_id)."
            + " Nothing is removed until a person approves.",
        StageDelete.class, Staged.class, OperationAnnotations.CREATE, (actor, in) -> stageDelete(desk, actor, in)));
    register(ops, Operation.of("calendar_browse",
        "Fetch one public web page or iCalendar file (http/https; private and local addresses are refused): HTML as clean"
            + " text (at most 100,000 characters), an .ics as events you can stage. Stage nothing without the user asking.",
        BrowseInput.class, Browse.class, OperationAnnotations.READ, (actor, in) -> browse(in)));
    register(ops, Operation.of("calendar_audit",
        "The calendar agent's audit trail, newest first: every query, stage, approval and rejection (operation, actor, time, summary).",
        AuditInput.class, Audit.class, OperationAnnotations.READ,
        (actor, in) -> new Audit(audit.get().newest(in == null || in.limit() == null ? CalendarAudit.DEFAULT_CAP : Math.max(1, in.limit())))));
    prompt.set(new CalendarPrompt(context.config().home()));
    register(ops, Operation.of("calendar_prompt",
        "The calendar conversation's system prompt in effect (bundled, or the user's override in the Roundhouse home) with its version.",
        NoInput.class, CalendarOps.Prompt.class, OperationAnnotations.READ, (actor, in) -> promptInfo()));
    desk.onAnswer(KIND, this::answered);
    context.contributeToTurns(new CalendarConversation(conversation, prompt.get(), store, queries, clock::get));
  }

  private CalendarOps.Prompt promptInfo() {
    CalendarPrompt.Reading reading = prompt.get().read();
    String note = null;
    if (reading.source().equals("override") && !java.util.Objects.equals(reading.version(), reading.bundledVersion())) {
      note = "the override is " + (reading.version() == null ? "unversioned" : "version " + reading.version())
          + "; the bundled prompt is version " + reading.bundledVersion() + ": compare them when you upgrade";
    }
    return new CalendarOps.Prompt(reading.version(), reading.source(), reading.path(), reading.bundledVersion(), note, reading.text());
  }

  /** Registers {@code operation} so that every call, answered or refused, is audited (the audit read itself is not). */
  private void register(OperationRegistry registry, Operation<?, ?> operation) {
    registry.register(audited(operation));
  }

  private <I, O> Operation<I, O> audited(Operation<I, O> operation) {
    if (operation.name().equals("calendar_audit")) {
      return operation;
    }
    return Operation.of(operation.name(), operation.description(), operation.inputType(), operation.outputType(),
        operation.annotations(), (actor, in) -> {
          try {
            O out = operation.handler().apply(actor, in);
            audit.get().record(operation.name(), actor, summary(in, out));
            return out;
          } catch (RoundhouseException e) {
            audit.get().record(operation.name(), actor, "refused: " + e.getMessage() + " (" + Json.write(in) + ")");
            throw e;
          }
        });
  }

  private static String summary(Object in, Object out) {
    String input = Json.write(in);
    return switch (out) {
      case Events events -> input + " -> " + events.count() + " occurrences" + (events.capped() ? " (capped)" : "");
      case Staged staged -> "decision " + staged.decision() + ": " + staged.title() + (staged.duplicates().isEmpty() ? "" : " (possible duplicate)");
      case StagedBatch batch -> "decisions " + batch.proposals().stream().map(p -> String.valueOf(p.decision())).toList();
      case FreeBusy busy -> input + " -> " + busy.busy().size() + " busy intervals";
      case Browse page -> input + " -> " + page.status() + " " + page.kind() + " from " + page.url()
          + (page.redirects().isEmpty() ? "" : " after " + page.redirects().size() + " redirects")
          + (page.events() == null ? ", " + page.text().length() + " characters" : ", " + page.events().size() + " events");
      default -> input;
    };
  }

  // ---- browse

  private Browse browse(BrowseInput in) {
    if (in.url() == null || in.url().isBlank()) {
      throw new RoundhouseException.InvalidInput("url is required");
    }
    WebBrowser.Page page = browser.get().browse(in.url());
    if (page.kind().equals("calendar")) {
      ZoneId zone = store.sources().stream().filter(CalendarSource::writable).map(CalendarSource::zone).findFirst().orElse(Times.UTC);
      IcsImport.Result events = IcsImport.read(page.text(), zone);
      String note = page.truncated() ? "the file was cut at " + WebBrowser.MAX_BYTES + " bytes; events may be missing" : null;
      note = events.note() == null ? note : note == null ? events.note() : note + "; " + events.note();
      return new Browse(page.url(), page.redirects(), page.status(), page.kind(), page.title(), null, page.truncated(),
          events.events(), note);
    }
    return new Browse(page.url(), page.redirects(), page.status(), page.kind(), page.title(), page.text(), page.truncated(), null,
        page.truncated() ? "truncated" : null);
  }

  // ---- queries

  /** A validated new event. */
  private record NewEvent(CalendarSource calendar, Titles.Title title, ZonedDateTime start, ZonedDateTime end,
      LocalDate startDate, LocalDate endDate, String location, String description) {
    boolean allDay() {
      return startDate != null;
    }

    Instant startInstant() {
      return allDay() ? startDate.atStartOfDay(calendar.zone()).toInstant() : start.toInstant();
    }

    Instant endInstant() {
      return allDay() ? endDate.atStartOfDay(calendar.zone()).toInstant() : end.toInstant();
    }

    ZoneId zone() {
      return allDay() ? calendar.zone() : start.getZone();
    }
  }

  private NewEvent validate(StageCreate in) {
    CalendarSource calendar = store.writable(in.calendar());
    Titles.Title title = Titles.require(in.title());
    if (Boolean.TRUE.equals(in.allDay())) {
      LocalDate start = Times.parseDate("start", in.start());
      LocalDate end = in.end() == null ? start.plusDays(1) : Times.parseDate("end", in.end());
      if (!end.isAfter(start)) {
        throw new RoundhouseException.InvalidInput("end " + end + " is not after start " + start + " (the end date is exclusive)");
      }
      return new NewEvent(calendar, title, null, null, start, end, blankToNull(in.location()), blankToNull(in.description()));
    }
    ZonedDateTime start = Times.parse("start", in.start());
    if (in.end() == null) {
      throw new RoundhouseException.InvalidInput("end is required for a timed event");
    }
    ZonedDateTime end = Times.parse("end", in.end()).withZoneSameInstant(start.getZone());
    if (!end.isAfter(start)) {
      throw new RoundhouseException.InvalidInput("end " + in.end() + " is not after start " + in.start());
    }
    return new NewEvent(calendar, title, start, end, null, null, blankToNull(in.location()), blankToNull(in.description()));
  }

  private Staged stageCreate(DecisionDesk desk, Actor actor, StageCreate in) {
    return open(desk, actor, validate(in));
  }

  private StagedBatch stageBatch(DecisionDesk desk, Actor actor, StageBatchCreate in) {
    if (in.events() == null || in.events().isEmpty()) {
      throw new RoundhouseException.InvalidInput("events is empty");
    }
    if (in.events().size() > 100) {
      throw new RoundhouseException.InvalidInput("a batch holds at most 100 events, not " + in.events().size());
    }
    List<NewEvent> valid = new ArrayList<>();
    for (int i = 0; i < in.events().size(); i++) {
      try {
        valid.add(validate(in.events().get(i)));
      } catch (RoundhouseException e) {
        throw new RoundhouseException.InvalidInput("events[" + i + "]: " + e.getMessage());
      }
    }
    return new StagedBatch(valid.stream().map(event -> open(desk, actor, event)).toList());
  }

  private Staged open(DecisionDesk desk, Actor actor, NewEvent event) {
    List<Occurrence> duplicates = store.read(event.calendar().id()).expand(event.calendar().id(),
            event.calendar().zone(), event.startInstant(), event.endInstant().plusSeconds(1), Expansion.MAX_OCCURRENCES, null)
        .occurrences().stream()
        .filter(o -> o.title().strip().equalsIgnoreCase(event.title().text())
            && Instant.parse(o.start()).equals(event.startInstant()) && Instant.parse(o.end()).equals(event.endInstant()))
        .toList();
    ObjectNode request = Json.mapper().createObjectNode();
    request.put("action", "create");
    request.put("calendar", event.calendar().id());
    request.putNull("before");
    ObjectNode after = request.putObject("after");
    after.put("title", event.title().text());
    after.put("category", event.title().category());
    after.put("sub_category", event.title().subCategory());
    after.put("all_day", event.allDay());
    after.put("zone", event.zone().getId());
    after.put("start", event.startInstant().toString());
    after.put("end", event.endInstant().toString());
    after.put("start_local", event.allDay() ? event.startDate().toString() : event.start().toLocalDateTime().toString());
    after.put("end_local", event.allDay() ? event.endDate().toString() : event.end().toLocalDateTime().toString());
    if (event.location() != null) {
      after.put("location", event.location());
    }
    if (event.description() != null) {
      after.put("description", event.description());
    }
    request.set("duplicates", Json.tree(duplicates));
    String title = "Add \"" + event.title().text() + "\" to " + event.calendar().id() + " ("
        + after.get("start_local").asText() + (event.allDay() ? "" : " " + event.zone().getId()) + ")"
        + (duplicates.isEmpty() ? "" : " — possible duplicate");
    Decision decision = desk.open(actor, KIND, null, actor.taskId(), title, request, OPTIONS);
    return new Staged(decision.id(), decision.status(), event.calendar().id(), uidFor(decision.id()), event.title().text(), duplicates);
  }

  /** The current blocks of one event, for a change staged against them. */
  private record Current(CalendarSource calendar, String before, String etag, List<List<String>> blocks, List<String> master, boolean recurring) {}

  private Current current(String calendarId, String uid) {
    CalendarSource calendar = store.writable(calendarId);
    if (uid == null || uid.isBlank()) {
      throw new RoundhouseException.InvalidInput("uid is required");
    }
    Snapshot snapshot = store.read(calendar.id());
    List<String> blocks = CalendarStore.eventBlocks(snapshot.text(), uid);
    if (blocks.isEmpty()) {
      throw new RoundhouseException.NotFound("no event '" + uid + "' in calendar '" + calendar.id() + "'");
    }
    List<List<String>> logical = blocks.stream().map(IcsEdit::unfold).toList();
    List<String> master = logical.stream().filter(b -> !IcsEdit.isOverride(b)).findFirst()
        .orElseThrow(() -> new RoundhouseException.Conflict("event '" + uid + "' has overrides but no series; edit it in a calendar app"));
    boolean recurring = IcsEdit.property(master, "RRULE").isPresent() || IcsEdit.property(master, "RDATE").isPresent();
    Snapshot.Located located = snapshot.located(uid);
    return new Current(calendar, String.join("", blocks), located == null ? null : located.etag(), logical, master, recurring);
  }

  static final String FOLLOWING = "following";

  private static String scope(String scope, boolean recurring, String operation) {
    if (scope == null) {
      if (recurring && operation.equals("update")) {
        throw new RoundhouseException.InvalidInput("this event recurs: say scope 'this' (one occurrence, with recurrence_id),"
            + " 'following' (this and following, with recurrence_id) or 'all'");
      }
      return "all";
    }
    String normal = scope.strip().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    if (normal.equals("this and following")) {
      normal = FOLLOWING;
    }
    if (!normal.equals("this") && !normal.equals("all") && !normal.equals(FOLLOWING)) {
      throw new RoundhouseException.InvalidInput("scope '" + scope + "' is not 'this', 'following' (this and following) or 'all'");
    }
    if (!normal.equals("all") && !recurring) {
      throw new RoundhouseException.InvalidInput("scope '" + scope + "' is for recurring events; this one does not recur");
    }
    return normal;
  }

  /** The series' blocks with the given fields set; overrides that showed the series' old value follow it. */
  private static List<List<String>> retitled(List<List<String>> blocks, List<String> master, Titles.Title title, String location, String description) {
    List<List<String>> out = new ArrayList<>();
    for (List<String> block : blocks) {
      List<String> edited = fields(block, master, block == master, title, location, description);
      out.add(edited.equals(block) ? block : edited);
    }
    return out;
  }

  /** The series moved in time (scope all, or the part split off): the occurrence at {@code reference} goes to start/end. */
  private static List<List<String>> movedSeries(List<List<String>> blocks, List<String> master, Instant reference,
      StageUpdate in, ZoneId calendarZone, List<ZoneId> zones) {
    boolean allDay = IcsEdit.value(IcsEdit.property(master, "DTSTART").orElseThrow()).strip().length() == 8;
    if (in.start() == null) {
      throw new RoundhouseException.InvalidInput("moving a series needs start (the new start of the occurrence "
          + (in.recurrenceId() == null ? "that opens the series" : in.recurrenceId()) + "); end alone is not enough");
    }
    ZonedDateTime start = allDay ? null : Times.parse("start", in.start());
    ZonedDateTime end = allDay || in.end() == null ? null : Times.parse("end", in.end());
    LocalDate startDate = allDay ? Times.parseDate("start", in.start()) : null;
    LocalDate endDate = allDay && in.end() != null ? Times.parseDate("end", in.end()) : null;
    if (start != null) {
      zones.add(start.getZone());
    }
    return SeriesEdit.shift(blocks, master, reference, start, end, startDate, endDate, calendarZone);
  }

  private Staged stageUpdate(DecisionDesk desk, Actor actor, StageUpdate in) {
    Current current = current(in.calendar(), in.uid());
    String scope = scope(in.scope(), current.recurring(), "update");
    ZoneId calendarZone = current.calendar().zone();
    Titles.Title title = in.title() == null ? null : Titles.require(in.title());
    List<ZoneId> zones = new ArrayList<>();
    List<List<String>> after = new ArrayList<>(current.blocks());
    Occurrence occurrence = null;
    ArrayNode also = Json.mapper().createArrayNode();
    boolean moves = in.start() != null || in.end() != null;
    Instant masterStart = IcsEdit.instant(IcsEdit.property(current.master(), "DTSTART").orElseThrow(), calendarZone);
    if (!scope.equals("this") && in.recurrenceId() != null && current.recurring()) {
      occurrence = queries.event(new EventInput(current.calendar().id(), in.uid(), in.recurrenceId())).occurrence();
      if (scope.equals(FOLLOWING) && Instant.parse(occurrence.recurrenceId()).equals(masterStart)) {
        scope = "all"; // this and following from the first occurrence is the whole series
      }
    }
    if (scope.equals(FOLLOWING)) {
      if (occurrence == null) {
        throw new RoundhouseException.InvalidInput("scope 'following' needs recurrence_id: the original start of the first occurrence to change");
      }
      SeriesEdit.Split split = SeriesEdit.split(after, current.master(), Instant.parse(occurrence.recurrenceId()), calendarZone);
      after = new ArrayList<>(split.before());
      List<List<String>> following = split.following();
      following = retitled(following, following.getFirst(), title, in.location(), in.description());
      if (moves) {
        following = movedSeries(following, following.getFirst(), Instant.parse(occurrence.recurrenceId()), in, calendarZone, zones);
      }
      ObjectNode part = also.addObject();
      part.put("uid", split.newUid());
      part.put("before", "");
      part.put("after", following.stream().map(IcsEdit::fold).reduce("", String::concat));
    } else if (scope.equals("all") && current.recurring()) {
      int masterIndex = after.indexOf(current.master());
      after = retitled(after, current.master(), title, in.location(), in.description());
      if (moves) {
        Instant reference = occurrence != null ? Instant.parse(occurrence.recurrenceId()) : masterStart;
        after = movedSeries(after, after.get(masterIndex), reference, in, calendarZone, zones);
      } else {
        after.replaceAll(block -> current.blocks().contains(block) ? block : IcsEdit.bumpSequence(block));
      }
    } else if (scope.equals("all")) {
      for (int i = 0; i < after.size(); i++) {
        List<String> block = after.get(i);
        boolean isMaster = block == current.master();
        List<String> edited = fields(block, current.master(), isMaster, title, in.location(), in.description());
        if (isMaster && moves) {
          edited = moved(edited, edited, in.start(), in.end(), calendarZone, zones);
        }
        if (!edited.equals(block)) {
          after.set(i, IcsEdit.bumpSequence(edited));
        }
      }
    } else {
      if (in.recurrenceId() == null) {
        throw new RoundhouseException.InvalidInput("scope 'this' needs recurrence_id: the occurrence's original start");
      }
      occurrence = queries.event(new EventInput(current.calendar().id(), in.uid(), in.recurrenceId())).occurrence();
      Instant original = Instant.parse(occurrence.recurrenceId());
      String masterStartLine = IcsEdit.property(current.master(), "DTSTART").orElseThrow();
      int index = -1;
      for (int i = 0; i < after.size(); i++) {
        Optional<String> rid = IcsEdit.property(after.get(i), "RECURRENCE-ID");
        if (rid.isPresent() && IcsEdit.instant(rid.get(), calendarZone).equals(original)) {
          index = i;
        }
      }
      List<String> block;
      if (index >= 0) {
        block = after.get(index);
      } else {
        block = new ArrayList<>();
        for (String line : current.master()) {
          String name = IcsEdit.name(line);
          if (!List.of("RRULE", "RDATE", "EXDATE", "EXRULE", "DTSTART", "DTEND", "DURATION", "SEQUENCE").contains(name)) {
            block.add(line);
          }
        }
        block = IcsEdit.add(block, IcsEdit.like("RECURRENCE-ID", masterStartLine, original, calendarZone));
        block = IcsEdit.add(block, IcsEdit.like("DTSTART", masterStartLine, Instant.parse(occurrence.start()), calendarZone));
        block = IcsEdit.add(block, IcsEdit.like("DTEND", masterStartLine, Instant.parse(occurrence.end()), calendarZone));
      }
      List<String> edited = fields(block, block, false, title, in.location(), in.description());
      edited = moved(edited, edited, in.start(), in.end(), calendarZone, zones);
      edited = IcsEdit.bumpSequence(edited);
      if (index >= 0) {
        after.set(index, edited);
      } else {
        after.add(edited);
      }
    }
    String afterIcs = after.stream().map(IcsEdit::fold).reduce("", String::concat);
    if (afterIcs.equals(current.before())) {
      throw new RoundhouseException.InvalidInput("the update changes nothing");
    }
    ObjectNode request = Json.mapper().createObjectNode();
    request.put("action", "replace");
    request.put("calendar", current.calendar().id());
    request.put("uid", in.uid());
    request.put("scope", scope);
    ObjectNode before = request.putObject("before");
    before.put("title", Expansion.text(current.master()));
    if (occurrence != null) {
      before.set("occurrence", Json.tree(occurrence));
    }
    before.put("ics", current.before());
    if (current.etag() != null) {
      before.put("etag", current.etag());
    }
    ObjectNode afterNode = request.putObject("after");
    afterNode.put("ics", afterIcs);
    request.set("zones", Json.tree(zones.stream().map(ZoneId::getId).distinct().toList()));
    if (!also.isEmpty()) {
      request.set("also", also);
    }
    String shown = title != null ? title.text() : Expansion.text(current.master());
    Decision decision = desk.open(actor, KIND, null, actor.taskId(),
        "Change \"" + shown + "\"" + (scope.equals("this") ? " (one occurrence, " + occurrence.startLocal() + ")"
            : scope.equals(FOLLOWING) ? " (from " + occurrence.startLocal() + " on)" : current.recurring() ? " (whole series)" : "")
            + " in " + current.calendar().id(),
        request, OPTIONS);
    return new Staged(decision.id(), decision.status(), current.calendar().id(), in.uid(), shown, List.of());
  }

  /** {@code block} with the given fields set; on the master, overrides still showing the old value follow it. */
  private static List<String> fields(List<String> block, List<String> master, boolean isMaster, Titles.Title title, String location, String description) {
    List<String> out = block;
    out = field(out, master, isMaster, "SUMMARY", title == null ? null : title.text());
    if (title != null) {
      out = IcsEdit.set(out, "CATEGORIES", null);
      out = IcsEdit.set(out, "CATEGORIES", IcsText.textLine("CATEGORIES", title.category()));
    }
    out = field(out, master, isMaster, "LOCATION", location);
    out = field(out, master, isMaster, "DESCRIPTION", description);
    return out;
  }

  private static List<String> field(List<String> block, List<String> master, boolean isMaster, String name, String value) {
    if (value == null) {
      return block;
    }
    if (!isMaster && block != master && !IcsEdit.property(block, name).equals(IcsEdit.property(master, name))) {
      return block; // an override with its own value keeps it
    }
    return IcsEdit.set(block, name, value.isBlank() ? null : IcsText.textLine(name, value.strip()));
  }

  /** {@code block} moved to {@code start}/{@code end} (either may be absent: the duration is kept). */
  private static List<String> moved(List<String> block, List<String> source, String start, String end, ZoneId calendarZone, List<ZoneId> zones) {
    if (start == null && end == null) {
      return block;
    }
    String startLine = IcsEdit.property(source, "DTSTART").orElseThrow();
    boolean allDay = IcsEdit.value(startLine).strip().length() == 8;
    Instant oldStart = IcsEdit.instant(startLine, calendarZone);
    Optional<String> endLine = IcsEdit.property(source, "DTEND");
    Instant oldEnd = endLine.map(l -> IcsEdit.instant(l, calendarZone)).orElse(oldStart);
    Duration length = Duration.between(oldStart, oldEnd);
    List<String> out = IcsEdit.set(block, "DURATION", null);
    if (allDay) {
      LocalDate newStart = start == null ? oldStart.atZone(calendarZone).toLocalDate() : Times.parseDate("start", start);
      LocalDate newEnd = end == null ? newStart.plusDays(Math.max(1, length.toDays())) : Times.parseDate("end", end);
      if (!newEnd.isAfter(newStart)) {
        throw new RoundhouseException.InvalidInput("end " + newEnd + " is not after start " + newStart + " (the end date is exclusive)");
      }
      out = IcsEdit.set(out, "DTSTART", IcsText.dateLine("DTSTART", newStart));
      return IcsEdit.set(out, "DTEND", IcsText.dateLine("DTEND", newEnd));
    }
    ZonedDateTime newStart = start != null ? Times.parse("start", start)
        : oldStart.atZone(Expansion.zoneOfLine(startLine, calendarZone));
    ZonedDateTime newEnd = end != null ? Times.parse("end", end).withZoneSameInstant(newStart.getZone()) : newStart.plus(length);
    if (!newEnd.isAfter(newStart)) {
      throw new RoundhouseException.InvalidInput("end " + newEnd + " is not after start " + newStart);
    }
    zones.add(newStart.getZone());
    out = IcsEdit.set(out, "DTSTART", IcsText.timeLine("DTSTART", newStart));
    return IcsEdit.set(out, "DTEND", IcsText.timeLine("DTEND", newEnd));
  }

  private Staged stageDelete(DecisionDesk desk, Actor actor, StageDelete in) {
    Current current = current(in.calendar(), in.uid());
    String scope = scope(in.scope(), current.recurring(), "delete");
    String title = Expansion.text(current.master());
    ObjectNode request = Json.mapper().createObjectNode();
    request.put("action", "replace");
    request.put("calendar", current.calendar().id());
    request.put("uid", in.uid());
    request.put("scope", scope);
    ObjectNode before = request.putObject("before");
    before.put("title", title);
    IcsEdit.property(current.master(), "RRULE").ifPresent(rule -> before.put("rrule", IcsEdit.value(rule)));
    before.put("overrides", current.blocks().size() - 1);
    before.put("ics", current.before());
    if (current.etag() != null) {
      before.put("etag", current.etag());
    }
    String decisionTitle;
    if (scope.equals(FOLLOWING)) {
      if (in.recurrenceId() == null) {
        throw new RoundhouseException.InvalidInput("scope 'following' needs recurrence_id: the original start of the first occurrence to delete");
      }
      Occurrence occurrence = queries.event(new EventInput(current.calendar().id(), in.uid(), in.recurrenceId())).occurrence();
      Instant cut = Instant.parse(occurrence.recurrenceId());
      if (cut.equals(IcsEdit.instant(IcsEdit.property(current.master(), "DTSTART").orElseThrow(), current.calendar().zone()))) {
        scope = "all"; // from the first occurrence on is the whole series
        request.put("scope", scope);
      } else {
        before.set("occurrence", Json.tree(occurrence));
        SeriesEdit.Split split = SeriesEdit.split(current.blocks(), current.master(), cut, current.calendar().zone());
        request.putObject("after").put("ics", split.before().stream().map(IcsEdit::fold).reduce("", String::concat));
        decisionTitle = "Delete \"" + title + "\" from " + occurrence.startLocal() + " on, in " + current.calendar().id();
        Decision decision = desk.open(actor, KIND, null, actor.taskId(), decisionTitle, request, OPTIONS);
        return new Staged(decision.id(), decision.status(), current.calendar().id(), in.uid(), title, List.of());
      }
    }
    if (scope.equals("all")) {
      request.putNull("after");
      decisionTitle = "Delete \"" + title + "\"" + (current.recurring() ? " (whole series)" : "") + " from " + current.calendar().id();
    } else {
      if (in.recurrenceId() == null) {
        throw new RoundhouseException.InvalidInput("scope 'this' needs recurrence_id: the occurrence's original start");
      }
      ZoneId calendarZone = current.calendar().zone();
      Occurrence occurrence = queries.event(new EventInput(current.calendar().id(), in.uid(), in.recurrenceId())).occurrence();
      Instant original = Instant.parse(occurrence.recurrenceId());
      before.set("occurrence", Json.tree(occurrence));
      String masterStart = IcsEdit.property(current.master(), "DTSTART").orElseThrow();
      List<List<String>> after = new ArrayList<>();
      for (List<String> block : current.blocks()) {
        if (block == current.master()) {
          after.add(IcsEdit.bumpSequence(IcsEdit.add(block, IcsEdit.like("EXDATE", masterStart, original, calendarZone))));
        } else if (!IcsEdit.instant(IcsEdit.property(block, "RECURRENCE-ID").orElseThrow(), calendarZone).equals(original)) {
          after.add(block);
        }
      }
      request.putObject("after").put("ics", after.stream().map(IcsEdit::fold).reduce("", String::concat));
      decisionTitle = "Delete one occurrence of \"" + title + "\" (" + occurrence.startLocal() + ") from " + current.calendar().id();
    }
    Decision decision = desk.open(actor, KIND, null, actor.taskId(), decisionTitle, request, OPTIONS);
    return new Staged(decision.id(), decision.status(), current.calendar().id(), in.uid(), title, List.of());
  }

  // ---- commits

  private void answered(Decision decision, String answer, String message, Actor actor) {
    try {
      commit(decision, answer, actor);
    } catch (RoundhouseException e) {
      audit.get().record("decision_answer", actor, "refused " + answer + " of decision " + decision.id() + ": " + e.getMessage());
      throw e;
    }
    audit.get().record("decision_answer", actor, (answer.equals("approve") ? "approved" : answer + "ed") + " decision " + decision.id()
        + ": " + decision.title() + (message == null || message.isBlank() ? "" : " (" + message + ")"));
  }

  private void commit(Decision decision, String answer, Actor actor) {
    if (!"approve".equals(answer)) {
      return;
    }
    if (actor.isAgent()) {
      throw new RoundhouseException.Forbidden("agent_cannot_approve",
          "an agent cannot approve calendar proposal " + decision.id() + "; a person must");
    }
    String action = decision.request().path("action").asText();
    switch (action) {
      case "create" -> commitCreate(decision);
      case "replace" -> commitReplace(decision);
      default -> throw new RoundhouseException.InvalidInput("calendar proposal " + decision.id() + " has unknown action '" + action + "'");
    }
  }

  private void commitCreate(Decision decision) {
    String calendar = decision.request().path("calendar").asText();
    String uid = uidFor(decision.id());
    store.apply(calendar, List.of(new EventChange(calendar, uid, "", null, createdEvent(decision), decision.id())));
  }

  /** The VEVENT a create proposal adds: a function of the decision alone, so a retry writes the same bytes. */
  static String createdEvent(Decision decision) {
    var after = decision.request().path("after");
    ZoneId zone = ZoneId.of(after.path("zone").asText());
    boolean allDay = after.path("all_day").asBoolean();
    StringBuilder event = new StringBuilder();
    line(event, "BEGIN:VEVENT");
    line(event, IcsText.textLine("UID", uidFor(decision.id())));
    line(event, "DTSTAMP:" + IcsText.utc(decision.createdAt()));
    if (allDay) {
      line(event, IcsText.dateLine("DTSTART", LocalDate.parse(after.path("start_local").asText())));
      line(event, IcsText.dateLine("DTEND", LocalDate.parse(after.path("end_local").asText())));
    } else {
      line(event, IcsText.timeLine("DTSTART", Instant.parse(after.path("start").asText()).atZone(zone)));
      line(event, IcsText.timeLine("DTEND", Instant.parse(after.path("end").asText()).atZone(zone)));
    }
    line(event, IcsText.textLine("SUMMARY", after.path("title").asText()));
    line(event, IcsText.textLine("CATEGORIES", after.path("category").asText()));
    Optional.ofNullable(after.get("location")).ifPresent(v -> line(event, IcsText.textLine("LOCATION", v.asText())));
    Optional.ofNullable(after.get("description")).ifPresent(v -> line(event, IcsText.textLine("DESCRIPTION", v.asText())));
    line(event, "X-ROUNDHOUSE-DECISION:" + decision.id());
    line(event, "END:VEVENT");
    return event.toString();
  }

  /**
   * Replaces an event's blocks: exactly once, and only over the blocks the proposal was staged against. The
   * file already holding the result is a retry (nothing to do); anything else is a conflict.
   */
  private void commitReplace(Decision decision) {
    var request = decision.request();
    String calendar = request.path("calendar").asText();
    List<EventChange> changes = new ArrayList<>();
    changes.add(new EventChange(calendar, request.path("uid").asText(), request.path("before").path("ics").asText(),
        request.path("before").path("etag").textValue(), request.path("after").path("ics").asText(""), decision.id()));
    // a split ("this and following") also creates the following part as a new series
    request.path("also").forEach(extra -> changes.add(new EventChange(calendar, extra.path("uid").asText(),
        extra.path("before").asText(""), null, extra.path("after").asText(""), decision.id())));
    store.apply(calendar, changes);
  }

  private static void line(StringBuilder out, String line) {
    out.append(line).append("\r\n");
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text.strip();
  }
}
