package dev.roundhouse.hub.board;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException.Conflict;
import dev.roundhouse.hub.core.RoundhouseException.Forbidden;
import dev.roundhouse.hub.core.RoundhouseException.InvalidInput;
import dev.roundhouse.hub.core.RoundhouseException.NotFound;
import dev.roundhouse.hub.api.BoardApi.BoardView;
import dev.roundhouse.hub.api.BoardApi.Column;
import dev.roundhouse.hub.api.BoardApi.DroppedEdge;
import dev.roundhouse.hub.api.BoardApi.ProjectCreate;
import dev.roundhouse.hub.api.BoardApi.ProjectUpdate;
import dev.roundhouse.hub.api.BoardApi.TaskCreate;
import dev.roundhouse.hub.api.BoardApi.TaskListQuery;
import dev.roundhouse.hub.api.BoardApi.TaskList;
import dev.roundhouse.hub.api.BoardApi.TaskMove;
import dev.roundhouse.hub.api.BoardApi.TaskMoved;
import dev.roundhouse.hub.api.BoardApi.TaskUpdate;
import dev.roundhouse.hub.api.BoardApi.TagUpdate;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.store.StoreReader;
import dev.roundhouse.hub.store.StoreWriter;
import dev.roundhouse.hub.store.TaskQuery;
import java.time.Instant;
import dev.roundhouse.hub.spi.TaskStatusGuard;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Optional;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.model.TaskStatus;
import dev.roundhouse.hub.model.Priority;
import dev.roundhouse.hub.model.Tag;
import dev.roundhouse.hub.model.TaskEdit;
import dev.roundhouse.hub.api.BoardApi;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Projects, tasks and tags: the rules of the board. Every write runs as one store write (so its checks and
 * changes are atomic with respect to other writes), records its actor, and appends the events that
 * describe it.
 *
 * <p>Actor rules: a task an agent files is always a suggestion, and only the user accepts one. Every field
 * a write changes is recorded as an edit (before and after) that {@link #revertEdit} can undo; this is how
 * an agent's edits to tasks other than its own are reviewed.
 *
 * <p>Thread-safe: holds no state of its own beyond the store.
 */
public final class Board {
  private static final int DEFAULT_LIMIT = 200;
  private static final int MAX_LIMIT = 1000;
  private static final int MAX_MOVE = 500;
  private static final int MAX_REASON = 2000;
  /** The tag a withdrawn suggestion carries. */
  public static final String WITHDRAWN = "withdrawn";

  private final Store store;
  private final Projects projects;
  private final List<TaskStatusGuard> guards = new CopyOnWriteArrayList<>();

  public Board(Store store) {
    this.store = store;
    this.projects = new Projects(store);
  }

  // ---- projects ----------------------------------------------------------------------------

  public Project createProject(Actor actor, ProjectCreate input) {
    return projects.create(actor, input);
  }

  public Project updateProject(Actor actor, ProjectUpdate input) {
    return projects.update(actor, input);
  }

  public Project project(String ref) {
    return store.read(r -> project(r, ref));
  }

  public List<Project> projects() {
    return store.read(StoreReader::projects);
  }

  public BoardView board(String ref) {
    return store.read(
        r -> {
          Project project = project(r, ref);
          List<Task> tasks = r.tasks(TaskQuery.inProject(project.id()));
          List<Column> columns = new ArrayList<>();
          for (TaskStatus status : TaskStatus.values()) {
            columns.add(new Column(status, tasks.stream().filter(t -> t.status() == status).toList()));
          }
          return new BoardView(project, columns);
        });
  }

  // ---- tasks -------------------------------------------------------------------------------

  public Task createTask(Actor actor, TaskCreate input) {
    String title = Names.title(input.title());
    String description = Names.emptyToNull(Names.optionalText("description", input.description()));
    List<String> tags = input.tags() == null ? List.of() : Names.tags(input.tags());
    boolean suggested = actor.isAgent() || Boolean.TRUE.equals(input.suggested());
    return store.write(w -> createTask(w, actor, input, title, description, tags, suggested));
  }

  /**
   * Creates a task inside a write the caller owns, so it commits (or not) together with the caller's own
   * changes: how a schedule's firing claims its run and mints its task in one transaction.
   */
  public Task createTask(StoreWriter w, Actor actor, TaskCreate input) {
    return createTask(w, actor, input, Names.title(input.title()),
        Names.emptyToNull(Names.optionalText("description", input.description())),
        input.tags() == null ? List.of() : Names.tags(input.tags()),
        actor.isAgent() || Boolean.TRUE.equals(input.suggested()));
  }

  private Task createTask(
      StoreWriter w, Actor actor, TaskCreate input, String title, String description, List<String> tags, boolean suggested) {
    Project project = project(w, input.project());
    Instant now = w.now();
    Task draft =
        new Task(
            0, project.id(), title, description,
            input.status() == null ? TaskStatus.BACKLOG : input.status(),
            input.priority() == null ? Priority.NORMAL : input.priority(),
            tags, List.of(), suggested,
            Names.emptyToNull(input.agent()), Names.emptyToNull(input.branch()),
            input.startAt(), Boolean.TRUE.equals(input.autoStart()), actor, now, now);
    Task created = w.insertTask(draft);
    List<Long> blockers = input.blockedBy() == null ? List.of() : input.blockedBy();
    if (!blockers.isEmpty()) {
      checkBlockers(w, created, blockers);
      created = new Task(
          created.id(), created.projectId(), created.title(), created.description(),
          created.status(), created.priority(), created.tags(), distinct(blockers),
          created.suggested(), created.agent(), created.branch(), created.startAt(),
          created.autoStart(), created.createdBy(), created.createdAt(), created.updatedAt());
      w.updateTask(created);
      created = w.task(created.id()).orElseThrow();
    }
    w.append(new BoardEvent.TaskCreated(created).draft(actor, project.id(), created.id()));
    return created;
  }

  public Task task(long id) {
    return store.read(r -> task(r, id));
  }

  public TaskList tasks(TaskListQuery input) {
    int limit = input.limit() == null ? DEFAULT_LIMIT : input.limit();
    int offset = input.offset() == null ? 0 : input.offset();
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidInput("limit must be between 1 and " + MAX_LIMIT + ", not " + limit);
    }
    if (offset < 0) {
      throw new InvalidInput("offset must not be negative, not " + offset);
    }
    Set<TaskStatus> statuses =
        input.status() == null || input.status().isEmpty()
            ? Set.of()
            : EnumSet.copyOf(input.status());
    String tag = input.tag() == null ? null : Names.tag(input.tag());
    return store.read(
        r -> {
          Long project = input.project() == null ? null : project(r, input.project()).id();
          List<Task> page =
              r.tasks(new TaskQuery(project, statuses, tag, input.text(), limit + 1, offset));
          boolean more = page.size() > limit;
          return new TaskList(more ? page.subList(0, limit) : page, more);
        });
  }

  /** Adds a module's veto on moving tasks between columns; asked before every write that changes a status. */
  public void guardStatusChanges(TaskStatusGuard guard) {
    guards.add(Objects.requireNonNull(guard, "guard"));
  }

  /** Asks every guard about each task the write would move to {@code to}; outside any write, no lock held. */
  private void checkGuards(Actor actor, Collection<Long> tasks, TaskStatus to) {
    if (guards.isEmpty() || to == null) {
      return;
    }
    for (long id : tasks) {
      Optional<Task> task = store.read(r -> r.task(id));
      if (task.isEmpty() || task.get().status() == to) {
        continue; // an unknown task is refused by the write itself, with its own sentence
      }
      Project project = store.read(r -> r.project(task.get().projectId())).orElseThrow();
      for (TaskStatusGuard guard : guards) {
        guard.check(actor, project, task.get(), to);
      }
    }
  }

  public Task updateTask(Actor actor, TaskUpdate input) {
    checkGuards(actor, List.of(input.task()), input.status());
    String title = input.title() == null ? null : Names.title(input.title());
    String description = Names.optionalText("description", input.description());
    List<String> tags = input.tags() == null ? null : Names.tags(input.tags());
    if (Boolean.TRUE.equals(input.clearStartAt()) && input.startAt() != null) {
      throw new InvalidInput("give start_at or clear_start_at, not both");
    }
    if (actor.isAgent() && Boolean.FALSE.equals(input.suggested())) {
      throw new Forbidden("forbidden", "only the user accepts a suggested task");
    }
    return store.write(
        w -> {
          Task before = task(w, input.task());
          refuseRunningForAgent(w, actor, before.id(), "edit");
          Task after =
              new Task(
                  before.id(), before.projectId(),
                  title != null ? title : before.title(),
                  Names.patch(before.description(), description),
                  input.status() != null ? input.status() : before.status(),
                  input.priority() != null ? input.priority() : before.priority(),
                  tags != null ? tags : before.tags(),
                  input.blockedBy() != null ? distinct(input.blockedBy()) : before.blockedBy(),
                  input.suggested() != null ? input.suggested() : before.suggested(),
                  Names.patch(before.agent(), input.agent()),
                  Names.patch(before.branch(), input.branch()),
                  Boolean.TRUE.equals(input.clearStartAt())
                      ? null
                      : input.startAt() != null ? input.startAt() : before.startAt(),
                  input.autoStart() != null ? input.autoStart() : before.autoStart(),
                  before.createdBy(), before.createdAt(), before.updatedAt());
          if (input.blockedBy() != null) {
            checkBlockers(w, before, after.blockedBy());
          }
          return save(w, actor, before, after);
        });
  }

  public TaskMoved moveTasks(Actor actor, TaskMove input) {
    if (input.tasks().isEmpty()) {
      throw new InvalidInput("tasks must name at least one task");
    }
    if (input.tasks().size() > MAX_MOVE) {
      throw new InvalidInput("move at most " + MAX_MOVE + " tasks at once, not " + input.tasks().size());
    }
    if (input.status() == null && input.project() == null) {
      throw new InvalidInput("say where to move: a status, a project, or both");
    }
    checkGuards(actor, input.tasks(), input.status());
    return store.write(
        w -> {
          Set<Long> moving = new LinkedHashSet<>(input.tasks());
          List<Task> befores = new ArrayList<>();
          for (long id : moving) {
            befores.add(task(w, id));
            refuseRunningForAgent(w, actor, id, "move");
          }
          Long target = input.project() == null ? null : project(w, input.project()).id();
          List<DroppedEdge> dropped = new ArrayList<>();
          List<Task> moved = new ArrayList<>();
          for (Task before : befores) {
            boolean changesProject = target != null && target != before.projectId();
            List<Long> blockers = before.blockedBy();
            if (changesProject) {
              List<Long> kept = blockers.stream().filter(moving::contains).toList();
              blockers.stream()
                  .filter(b -> !moving.contains(b))
                  .forEach(b -> dropped.add(new DroppedEdge(before.id(), b)));
              blockers = kept;
              // Tasks staying behind that wait on this one lose that edge too.
              for (var edge : w.blockerEdges(before.projectId()).entrySet()) {
                if (!moving.contains(edge.getKey()) && edge.getValue().contains(before.id())) {
                  Task waiter = w.task(edge.getKey()).orElseThrow();
                  List<Long> rest = waiter.blockedBy().stream().filter(b -> b != before.id()).toList();
                  dropped.add(new DroppedEdge(waiter.id(), before.id()));
                  save(w, actor, waiter, withBlockers(waiter, rest));
                }
              }
            }
            Task after =
                new Task(
                    before.id(), changesProject ? target : before.projectId(), before.title(),
                    before.description(), input.status() != null ? input.status() : before.status(),
                    before.priority(), before.tags(), blockers, before.suggested(), before.agent(),
                    before.branch(), before.startAt(), before.autoStart(), before.createdBy(), before.createdAt(),
                    before.updatedAt());
            moved.add(save(w, actor, w.task(before.id()).orElseThrow(), after));
          }
          return new TaskMoved(moved, dropped);
        });
  }

  public BoardApi.TaskDeleted deleteTask(Actor actor, long id) {
    return store.write(
        w -> {
          Task task = task(w, id);
          w.runner().activeTurn(id).ifPresent(turn -> {
            throw new Conflict("task " + id + " has turn " + turn.id() + " " + turn.status() + "; stop it with turn_stop before deleting the task");
          });
          List<Long> waiters =
              w.blockerEdges(task.projectId()).entrySet().stream()
                  .filter(e -> e.getValue().contains(id))
                  .map(Map.Entry::getKey)
                  .toList();
          w.deleteTask(id);
          w.append(new BoardEvent.TaskDeleted(task, waiters).draft(actor, task.projectId(), id));
          return new BoardApi.TaskDeleted(id, task.title());
        });
  }

  public List<TaskEdit> edits(long task, int limit) {
    return store.read(
        r -> {
          task(r, task);
          return r.edits(task, limit);
        });
  }

  /**
   * Undoes one recorded edit, provided the field still holds the value that edit wrote; a later change
   * is never overwritten silently.
   */
  public Task revertEdit(Actor actor, long editId) {
    return store.write(
        w -> {
          TaskEdit edit =
              w.edit(editId).orElseThrow(() -> new NotFound("no edit " + editId));
          if (edit.revertedAt() != null) {
            throw new Conflict(
                "edit " + editId + " was already reverted at " + edit.revertedAt() + " by " + edit.revertedBy());
          }
          Task current =
              w.task(edit.taskId())
                  .orElseThrow(() -> new NotFound("task " + edit.taskId() + " of edit " + editId + " was deleted"));
          var now = TaskFields.value(current, edit.field());
          if (!Objects.equals(now, edit.after())) {
            throw new Conflict(
                "task " + current.id() + "'s " + edit.field() + " changed after edit " + editId
                    + " (it is now " + now + ", the edit set " + edit.after() + "); not overwriting it");
          }
          Task reverted = TaskFields.with(current, edit.field(), edit.before());
          if (edit.field().equals("blocked_by")) {
            checkBlockers(w, current, reverted.blockedBy());
          }
          if (edit.field().equals("project_id")) {
            project(w, String.valueOf(reverted.projectId()));
          }
          Task saved = save(w, actor, current, reverted);
          w.markEditReverted(editId, actor, w.now());
          w.append(new BoardEvent.EditReverted(editId, edit.field()).draft(actor, saved.projectId(), saved.id()));
          return saved;
        });
  }

  /**
   * Withdraws a suggestion: the card moves to cancelled, gains the {@value #WITHDRAWN} tag and keeps the
   * reason in its description, so it stays visible as withdrawn. Only the user or whoever filed it may.
   */
  public Task withdrawSuggestion(Actor actor, long id, String rawReason) {
    String reason = Names.required("reason", rawReason);
    if (reason.length() > MAX_REASON) {
      throw new InvalidInput("reason is " + reason.length() + " characters; at most " + MAX_REASON);
    }
    return store.write(
        w -> {
          Task before = task(w, id);
          if (!before.suggested()) {
            throw new Conflict("task " + id + " is not a suggestion (it was accepted); only suggestions are withdrawn");
          }
          if (before.tags().contains(WITHDRAWN)) {
            throw new Conflict("suggestion " + id + " is already withdrawn");
          }
          if (actor.kind() != Actor.Kind.USER && !actor.equals(before.createdBy())) {
            throw new Forbidden(
                "forbidden", "only the user or whoever filed suggestion " + id + " (" + before.createdBy() + ") withdraws it, not " + actor);
          }
          refuseRunningForAgent(w, actor, id, "withdraw");
          List<String> tags = new ArrayList<>(before.tags());
          tags.add(WITHDRAWN);
          String note = "Withdrawn by " + actor + ": " + reason;
          Task after =
              new Task(
                  before.id(), before.projectId(), before.title(),
                  before.description() == null ? note : before.description() + "\n\n" + note,
                  TaskStatus.CANCELLED, before.priority(), tags.stream().sorted().toList(), before.blockedBy(),
                  true, before.agent(), before.branch(), before.startAt(), before.autoStart(), before.createdBy(),
                  before.createdAt(), before.updatedAt());
          Task saved = save(w, actor, before, after);
          w.append(new BoardEvent.TaskWithdrawn(reason).draft(actor, saved.projectId(), saved.id()));
          return saved;
        });
  }

  /**
   * Inside a write another engine opened: clears {@code task}'s start triggers ({@code start_at} and {@code
   * auto_start}) as {@code actor}, recording each cleared field as an edit with a {@code task.updated} event,
   * like any other change. The deferred-start and dependents engine calls it in the very write that starts
   * the task's turn (or records why it could not), so a trigger fires at most once.
   *
   * @return the task as saved
   */
  public static Task clearStartTriggers(StoreWriter w, Actor actor, Task task) {
    Task cleared =
        new Task(
            task.id(), task.projectId(), task.title(), task.description(), task.status(), task.priority(),
            task.tags(), task.blockedBy(), task.suggested(), task.agent(), task.branch(), null, false,
            task.createdBy(), task.createdAt(), task.updatedAt());
    return save(w, actor, task, cleared);
  }

  /** An agent may not change a task while a turn runs on it (its own included: the user owns that card). */
  private static void refuseRunningForAgent(StoreWriter w, Actor actor, long id, String verb) {
    if (!actor.isAgent()) {
      return;
    }
    w.runner().activeTurn(id).ifPresent(turn -> {
      throw new Conflict(
          "task " + id + " has turn " + turn.id() + " " + turn.status() + "; an agent cannot " + verb
              + " a task while a turn runs on it");
    });
  }

  // ---- tags --------------------------------------------------------------------------------

  public List<Tag> tags(String projectRef) {
    return store.read(r -> r.tags(projectRef == null ? null : project(r, projectRef).id()));
  }

  public Tag updateTag(Actor actor, TagUpdate input) {
    String name = Names.tag(input.name());
    String rename = input.newName() == null ? null : Names.tag(input.newName());
    String color = Names.color(input.color());
    String description = Names.optionalText("description", input.description());
    return store.write(
        w -> {
          boolean exists = w.tags(null).stream().anyMatch(t -> t.name().equals(name));
          if (!exists) {
            throw new NotFound("no tag '" + name + "'; list them with tag_list");
          }
          w.upsertTag(name, color, description);
          String current = name;
          if (rename != null && !rename.equals(name)) {
            w.renameTag(name, rename);
            current = rename;
          }
          String finalName = current;
          Tag tag = w.tags(null).stream().filter(t -> t.name().equals(finalName)).findFirst().orElseThrow();
          String renamedFrom = finalName.equals(name) ? null : name;
          w.append(new BoardEvent.TagUpdated(tag, renamedFrom).draft(actor, null, null));
          return tag;
        });
  }

  // ---- shared rules ------------------------------------------------------------------------

  /** Writes {@code after} over {@code before}, recording each changed field and one event. */
  private static Task save(StoreWriter w, Actor actor, Task before, Task after) {
    List<TaskFields.Change> changes = TaskFields.diff(before, after);
    if (changes.isEmpty()) {
      return before;
    }
    Instant now = w.now();
    Task stamped =
        new Task(
            after.id(), after.projectId(), after.title(), after.description(), after.status(),
            after.priority(), after.tags(), after.blockedBy(), after.suggested(), after.agent(),
            after.branch(), after.startAt(), after.autoStart(), after.createdBy(), after.createdAt(), now);
    w.updateTask(stamped);
    Task saved = w.task(stamped.id()).orElseThrow();
    List<BoardEvent.FieldChange> recorded = new ArrayList<>();
    for (TaskFields.Change change : changes) {
      long editId = w.recordEdit(saved.id(), actor, change.field(), change.before(), change.after(), now);
      recorded.add(new BoardEvent.FieldChange(editId, change.field(), change.before(), change.after()));
    }
    Boolean foreign = actor.isAgent() && !actor.isAgentOf(saved.id()) ? Boolean.TRUE : null;
    w.append(new BoardEvent.TaskUpdated(saved, recorded, foreign).draft(actor, saved.projectId(), saved.id()));
    return saved;
  }

  private static void checkBlockers(StoreWriter w, Task task, List<Long> blockers) {
    for (long blocker : blockers) {
      if (blocker == task.id()) {
        throw new Conflict("task " + task.id() + " cannot be blocked by itself");
      }
      Task other =
          w.task(blocker).orElseThrow(() -> new NotFound("blocked_by names task " + blocker + ", which does not exist"));
      if (other.projectId() != task.projectId()) {
        throw new InvalidInput(
            "blocked_by links tasks of one project: task " + blocker + " is in another project than task " + task.id());
      }
    }
    new BlockerGraph(w.blockerEdges(task.projectId())).set(task.id(), blockers);
  }

  private static Task withBlockers(Task t, List<Long> blockers) {
    return new Task(
        t.id(), t.projectId(), t.title(), t.description(), t.status(), t.priority(), t.tags(), blockers,
        t.suggested(), t.agent(), t.branch(), t.startAt(), t.autoStart(), t.createdBy(), t.createdAt(),
        t.updatedAt());
  }

  /** {@code raw} as the board stores tags (trimmed, lower case, each checked), or a refusal naming the bad one. */
  public static List<String> tags(List<String> raw) {
    return raw == null ? List.of() : Names.tags(raw);
  }

  private static List<Long> distinct(List<Long> ids) {
    return List.copyOf(new LinkedHashSet<>(ids));
  }

  /**
   * The project {@code ref} names (an id, or a name case-insensitively) as {@code r} sees it.
   *
   * @throws NotFound naming the known projects
   */
  public static Project project(StoreReader r, String ref) {
    return Projects.find(r, ref);
  }

  private static Task task(StoreReader r, long id) {
    return r.task(id).orElseThrow(() -> new NotFound("no task " + id));
  }
}
