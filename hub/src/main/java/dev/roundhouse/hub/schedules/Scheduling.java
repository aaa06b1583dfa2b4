package dev.roundhouse.hub.schedules;

import static dev.roundhouse.hub.ops.OperationAnnotations.CREATE;
import static dev.roundhouse.hub.ops.OperationAnnotations.DESTRUCTIVE;
import static dev.roundhouse.hub.ops.OperationAnnotations.READ;
import static dev.roundhouse.hub.ops.OperationAnnotations.UPDATE;

import dev.roundhouse.hub.agenttools.AgentTools;
import dev.roundhouse.hub.api.AgentToolsApi.RunbookAnswer;
import dev.roundhouse.hub.api.AgentToolsApi.RunbooksAnswer;
import dev.roundhouse.hub.api.BoardApi.NoInput;
import dev.roundhouse.hub.api.ScheduleApi;
import dev.roundhouse.hub.api.ScheduleApi.RunStarted;
import dev.roundhouse.hub.api.ScheduleApi.RunbookCreate;
import dev.roundhouse.hub.api.ScheduleApi.RunbookList;
import dev.roundhouse.hub.api.ScheduleApi.RunbookQuery;
import dev.roundhouse.hub.api.ScheduleApi.RunbookRef;
import dev.roundhouse.hub.api.ScheduleApi.RunbookRun;
import dev.roundhouse.hub.api.ScheduleApi.RunbookUpdate;
import dev.roundhouse.hub.api.ScheduleApi.ScheduleCreate;
import dev.roundhouse.hub.api.ScheduleApi.ScheduleList;
import dev.roundhouse.hub.api.ScheduleApi.ScheduleQuery;
import dev.roundhouse.hub.api.ScheduleApi.ScheduleRef;
import dev.roundhouse.hub.api.ScheduleApi.ScheduleUpdate;
import dev.roundhouse.hub.api.TurnApi.TurnView;
import dev.roundhouse.hub.board.Board;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Runbook;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.ops.Operation;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.turns.DriverRegistry;
import dev.roundhouse.hub.turns.TurnRunner;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Runbooks, schedules and the scheduler, wired and registered: the package's one entry point. Every
 * operation here is an MCP tool and a CLI command through the registry; agents get {@code create_runbook},
 * {@code list_runbooks} and {@code update_runbook} (no delete).
 *
 * <p>Lifecycle: {@link #create}, then {@link #open()} after the runner has opened, {@link #close()} before it
 * closes. Thread-safe.
 */
public final class Scheduling implements AutoCloseable {
  private static final DateTimeFormatter MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'").withZone(ZoneOffset.UTC);

  private final Store store;
  private final Board board;
  private final DriverRegistry drivers;
  private final Clock clock;
  private final RunLauncher launcher;
  private final Scheduler scheduler;
  private final Runbooks runbooks;
  private final Schedules schedules;

  private Scheduling(Store store, Board board, TurnRunner runner, DriverRegistry drivers, Clock clock, SchedulerSettings settings) {
    this.store = store;
    this.board = board;
    this.drivers = drivers;
    this.clock = clock;
    this.launcher = new RunLauncher(board, runner);
    ParsedRecurrences recurrences = new ParsedRecurrences();
    this.scheduler = new Scheduler(store, board, launcher, clock, settings, recurrences);
    this.runbooks = new Runbooks(store, drivers);
    this.schedules = new Schedules(store, clock, scheduler::wake, recurrences);
  }

  /** Wires the package and registers its operations in {@code registry}; nothing runs until {@link #open()}. */
  public static Scheduling create(
      Store store, Board board, TurnRunner runner, DriverRegistry drivers, Clock clock, SchedulerSettings settings,
      OperationRegistry registry) {
    Scheduling scheduling = new Scheduling(store, board, runner, drivers, clock, settings);
    scheduling.register(registry);
    return scheduling;
  }

  /** Starts the scheduler's ticks (unless switched off). */
  public void open() {
    scheduler.open();
  }

  public Scheduler scheduler() {
    return scheduler;
  }

  @Override
  public void close() {
    scheduler.close();
  }

  /** Mints a task from a runbook and starts its first turn; the task is deleted again if the turn cannot start. */
  public RunStarted run(Actor actor, RunbookRun in) {
    Runbook runbook = runbooks.get(new RunbookRef(in.runbook(), in.project()));
    RunSpec spec = RunSpec.of(runbook).withDriver(blankToNull(in.driver()), blankToNull(in.model()));
    if (spec.driver() != null && !drivers.has(spec.driver())) {
      throw new RoundhouseException.InvalidInput("no driver '" + spec.driver() + "'; known drivers: "
          + String.join(", ", drivers.list().stream().map(d -> d.id()).toList()));
    }
    String title = runbook.name() + " · " + MINUTE.format(clock.instant());
    String description = "Run of runbook '" + runbook.name() + "' (" + runbook.id() + ") by " + actor + ".";
    Task task = store.write(w -> launcher.mint(w, actor, spec, title, description));
    TurnView view;
    try {
      view = launcher.start(actor, task.id(), spec, Boolean.TRUE.equals(in.unattended()), (w, turn) -> {});
    } catch (RuntimeException e) {
      board.deleteTask(actor, task.id());
      throw e;
    }
    return new RunStarted(board.task(task.id()), view.turn());
  }

  private static String blankToNull(String text) {
    return text == null || text.isBlank() ? null : text.strip();
  }

  private void register(OperationRegistry registry) {
    registry.register(Operation.of("runbook_create",
        "Save a prompt as a runbook: the prompt, driver, model, permission mode, priority, tags, and whether to send the"
            + " project's context. runbook_run and schedules mint tasks from it.",
        RunbookCreate.class, Runbook.class, CREATE, runbooks::create));
    registry.register(Operation.of("runbook_list", "List runbooks by name, in one project or every project.",
        RunbookQuery.class, RunbookList.class, READ, (actor, in) -> new RunbookList(runbooks.list(in.project()))));
    registry.register(Operation.of("runbook_get", "Read one runbook.",
        RunbookRef.class, Runbook.class, READ, (actor, in) -> runbooks.get(in)));
    registry.register(Operation.of("runbook_update", "Change a runbook; absent fields are kept.",
        RunbookUpdate.class, Runbook.class, UPDATE, runbooks::update));
    registry.register(Operation.of("runbook_delete",
        "Delete a runbook. Refused while a schedule runs it (the answer names the schedules). Tasks it minted stay.",
        RunbookRef.class, ScheduleApi.RunbookDeleted.class, DESTRUCTIVE, runbooks::delete));
    registry.register(Operation.of("runbook_run",
        "Mint a task from a runbook and start its first turn. With unattended, a permission that would ask a person"
            + " is denied and recorded, and a question fails the run.",
        RunbookRun.class, RunStarted.class, CREATE, this::run));

    registry.register(Operation.of("schedule_create",
        "Create a schedule that fires a runbook (or a prompt of its own) on an RRULE or five-field cron recurrence in"
            + " an IANA time zone. Each firing mints a task and runs it unattended.",
        ScheduleCreate.class, Schedule.class, CREATE, schedules::create));
    registry.register(Operation.of("schedule_list",
        "List schedules with their next firing and last run, in one project or every project.",
        ScheduleQuery.class, ScheduleList.class, READ, (actor, in) -> new ScheduleList(schedules.list(in.project()))));
    registry.register(Operation.of("schedule_get", "Read one schedule with its last run.",
        ScheduleRef.class, ScheduleApi.ScheduleView.class, READ, (actor, in) -> schedules.get(in)));
    registry.register(Operation.of("schedule_update",
        "Change a schedule; absent fields are kept. A new recurrence or zone recomputes the next firing from now.",
        ScheduleUpdate.class, Schedule.class, UPDATE, schedules::update));
    registry.register(Operation.of("schedule_pause", "Pause a schedule: it does not fire until resumed.",
        ScheduleRef.class, Schedule.class, UPDATE, (actor, in) -> schedules.pause(actor, in, true)));
    registry.register(Operation.of("schedule_resume",
        "Resume a paused schedule from now: firings that came due while it was paused do not run.",
        ScheduleRef.class, Schedule.class, UPDATE, (actor, in) -> schedules.pause(actor, in, false)));
    registry.register(Operation.of("schedule_delete",
        "Delete a schedule and its run history. Runs still going keep their tasks and turns.",
        ScheduleRef.class, ScheduleApi.ScheduleDeleted.class, DESTRUCTIVE, schedules::delete));
    registry.register(Operation.of("schedule_preview",
        "The next firings of a schedule, or of a recurrence and zone to try out, with their wall-clock times.",
        ScheduleApi.SchedulePreview.class, ScheduleApi.Firings.class, READ, (actor, in) -> schedules.preview(in)));
    registry.register(Operation.of("schedule_runs",
        "A schedule's runs, newest first: when each was due, its task, and how it ended (done, failed, denied,"
            + " needed_person) or why it was skipped.",
        ScheduleApi.ScheduleRunsQuery.class, ScheduleApi.ScheduleRuns.class, READ, (actor, in) -> schedules.runs(in)));
    registry.register(Operation.of("scheduler_status",
        "The scheduler's health: whether it is on, its last tick, how late the oldest due firing is, the next firing,"
            + " and whether it looks stuck.",
        NoInput.class, ScheduleApi.SchedulerStatus.class, READ, (actor, in) -> scheduler.status()));

    AgentTools.add(registry, "create_runbook",
        "Save a prompt as a runbook in a project, for the user to run or schedule later.",
        RunbookCreate.class, RunbookAnswer.class, CREATE, (actor, in) -> {
          Runbook created = runbooks.create(actor, in);
          return new RunbookAnswer("create_runbook: saved runbook '" + created.name() + "' (" + created.id() + ")", created);
        });
    AgentTools.add(registry, "list_runbooks", "List the saved runbooks, in one project or every project.",
        RunbookQuery.class, RunbooksAnswer.class, READ, (actor, in) -> {
          var list = runbooks.list(in.project());
          return new RunbooksAnswer("list_runbooks: " + list.size() + " runbook(s)", list);
        });
    AgentTools.add(registry, "update_runbook", "Change a runbook's prompt or settings; absent fields are kept.",
        RunbookUpdate.class, RunbookAnswer.class, UPDATE, (actor, in) -> {
          Runbook updated = runbooks.update(actor, in);
          return new RunbookAnswer("update_runbook: updated runbook '" + updated.name() + "' (" + updated.id() + ")", updated);
        });
  }
}
