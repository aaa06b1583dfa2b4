package dev.roundhouse.hub.schedules;

import dev.roundhouse.hub.api.ScheduleApi.RunbookCreate;
import dev.roundhouse.hub.api.ScheduleApi.RunbookDeleted;
import dev.roundhouse.hub.api.ScheduleApi.RunbookRef;
import dev.roundhouse.hub.api.ScheduleApi.RunbookUpdate;
import dev.roundhouse.hub.board.Board;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException.Conflict;
import dev.roundhouse.hub.core.RoundhouseException.InvalidInput;
import dev.roundhouse.hub.model.Priority;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Runbook;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.store.StoreWriter;
import dev.roundhouse.hub.turns.DriverRegistry;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The rules of runbooks (saved prompts): names unique in a project, a known driver, a runbook in use by a
 * schedule cannot be deleted. Every change is recorded as an event by its actor.
 *
 * <p>Stateless apart from its collaborators; thread-safe.
 */
public final class Runbooks {
  static final int MAX_PROMPT = 100_000;

  private final Store store;
  private final DriverRegistry drivers;

  public Runbooks(Store store, DriverRegistry drivers) {
    this.store = store;
    this.drivers = drivers;
  }

  public Runbook create(Actor actor, RunbookCreate in) {
    String name = Refs.name("runbook", in.name());
    String prompt = Refs.text("prompt", in.prompt(), MAX_PROMPT);
    String driver = driver(Refs.emptyToNull(Refs.optional(in.driver())));
    List<String> tags = Board.tags(in.tags());
    return store.write(w -> {
      Project project = Board.project(w, in.project());
      unique(w, project, name, null);
      Instant now = w.now();
      Runbook created = w.schedules().insertRunbook(new Runbook(
          0, project.id(), name, prompt, driver, Refs.emptyToNull(Refs.optional(in.model())),
          Refs.emptyToNull(Refs.optional(in.permissionMode())), in.priority() == null ? Priority.NORMAL : in.priority(),
          tags, !Boolean.FALSE.equals(in.sendContext()), actor, now, now));
      w.append(new ScheduleEvent.RunbookSaved(created, true).draft(actor, project.id(), null));
      return created;
    });
  }

  public Runbook get(RunbookRef in) {
    return store.read(r -> Refs.runbook(r, in.runbook(), in.project()));
  }

  public List<Runbook> list(String project) {
    return store.read(r -> r.schedules().runbooks(project == null || project.isBlank() ? null : Board.project(r, project).id()));
  }

  public Runbook update(Actor actor, RunbookUpdate in) {
    String name = in.name() == null ? null : Refs.name("runbook", in.name());
    String prompt = in.prompt() == null ? null : Refs.text("prompt", in.prompt(), MAX_PROMPT);
    String driver = in.driver() == null ? null : Refs.optional(in.driver());
    if (driver != null && !driver.isEmpty()) {
      driver(driver);
    }
    List<String> tags = in.tags() == null ? null : Board.tags(in.tags());
    return store.write(w -> {
      Runbook before = Refs.runbook(w, in.runbook(), in.project());
      Project project = w.project(before.projectId()).orElseThrow();
      if (name != null) {
        unique(w, project, name, before.id());
      }
      Runbook after = new Runbook(
          before.id(), before.projectId(), name != null ? name : before.name(), prompt != null ? prompt : before.prompt(),
          driver != null ? Refs.emptyToNull(driver) : before.driver(),
          in.model() != null ? Refs.emptyToNull(in.model().strip()) : before.model(),
          in.permissionMode() != null ? Refs.emptyToNull(in.permissionMode().strip()) : before.permissionMode(),
          in.priority() != null ? in.priority() : before.priority(), tags != null ? tags : before.tags(),
          in.sendContext() != null ? in.sendContext() : before.sendContext(),
          before.createdBy(), before.createdAt(), w.now());
      w.schedules().updateRunbook(after);
      w.append(new ScheduleEvent.RunbookSaved(after, false).draft(actor, project.id(), null));
      return after;
    });
  }

  public RunbookDeleted delete(Actor actor, RunbookRef in) {
    return store.write(w -> {
      Runbook runbook = Refs.runbook(w, in.runbook(), in.project());
      List<Schedule> users = w.schedules().schedulesOf(runbook.id());
      if (!users.isEmpty()) {
        throw new Conflict("runbook '" + runbook.name() + "' is run by schedule(s) "
            + users.stream().map(s -> "'" + s.name() + "' (" + s.id() + ")").collect(Collectors.joining(", "))
            + ": delete them or point them at another runbook first");
      }
      w.schedules().deleteRunbook(runbook.id());
      w.append(new ScheduleEvent.RunbookDeleted(runbook).draft(actor, runbook.projectId(), null));
      return new RunbookDeleted(runbook.id(), runbook.name());
    });
  }

  private String driver(String id) {
    if (id != null && !drivers.has(id)) {
      throw new InvalidInput("no driver '" + id + "'; known drivers: "
          + drivers.list().stream().map(d -> d.id()).collect(Collectors.joining(", ")));
    }
    return id;
  }

  private static void unique(StoreWriter w, Project project, String name, Long self) {
    w.schedules().runbookNamed(project.id(), name).filter(other -> self == null || other.id() != self).ifPresent(other -> {
      throw new Conflict("project " + project.name() + " already has a runbook named '" + other.name() + "' (" + other.id() + ")");
    });
  }
}
