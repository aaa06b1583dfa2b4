package dev.roundhouse.hub.agenttools;

import static dev.roundhouse.hub.ops.OperationAnnotations.CREATE;
import static dev.roundhouse.hub.ops.OperationAnnotations.READ;
import static dev.roundhouse.hub.ops.OperationAnnotations.UPDATE;

import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.api.AgentToolsApi.Answer;
import dev.roundhouse.hub.api.AgentToolsApi.AskUser;
import dev.roundhouse.hub.api.AgentToolsApi.MoveAnswer;
import dev.roundhouse.hub.api.AgentToolsApi.ProjectsAnswer;
import dev.roundhouse.hub.api.AgentToolsApi.SuggestTask;
import dev.roundhouse.hub.api.AgentToolsApi.TagAnswer;
import dev.roundhouse.hub.api.AgentToolsApi.TagsAnswer;
import dev.roundhouse.hub.api.AgentToolsApi.TaskAnswer;
import dev.roundhouse.hub.api.AgentToolsApi.TasksAnswer;
import dev.roundhouse.hub.api.AgentToolsApi.UpdateTask;
import dev.roundhouse.hub.api.AgentToolsApi.UserAnswer;
import dev.roundhouse.hub.api.AgentToolsApi.WithdrawSuggestion;
import dev.roundhouse.hub.board.Board;
import dev.roundhouse.hub.api.BoardApi;
import dev.roundhouse.hub.api.BoardApi.NoInput;
import dev.roundhouse.hub.api.BoardApi.TagQuery;
import dev.roundhouse.hub.api.BoardApi.TagUpdate;
import dev.roundhouse.hub.api.BoardApi.TaskListQuery;
import dev.roundhouse.hub.api.BoardApi.TaskMove;
import dev.roundhouse.hub.api.BoardApi.TaskRef;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.ops.Operation;
import dev.roundhouse.hub.ops.Operation.Handler;
import dev.roundhouse.hub.ops.OperationAnnotations;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.hub.turns.TurnRunner;
import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Registers the agents' tools: operations named and shaped for a model, each one line over the board's or
 * the runner's existing rules (one implementation, so an agent and the user can never disagree about what
 * a change means), each behind {@link AnswerGuard}. Any face may call them; the actor's rules apply inside
 * (a task an agent files is a suggestion, an agent cannot change a task while a turn runs on it, its edits to
 * other tasks are recorded and revertable, only an agent in a running turn can ask the user).
 *
 * <p>Stateless; thread-safe.
 */
public final class AgentTools {

  /** How long a tool other than {@code ask_user} may take before its answer is a timeout sentence. */
  public static final Duration TIMEOUT = Duration.ofSeconds(30);

  private static final int MAX_QUESTION = 2000;
  private static final int MAX_OPTIONS = 20;

  private AgentTools() {}

  public static void register(OperationRegistry registry, Board board, TurnRunner runner) {
    register(registry, board, runner, TIMEOUT);
  }

  static void register(OperationRegistry registry, Board board, TurnRunner runner, Duration timeout) {
    Summaries say = new Summaries(board);
    add(registry, timeout, "suggest_task",
        "Suggest a task on any project's board (by exact id or case-insensitive exact name; an unknown project is"
            + " refused with the candidates). The card is marked suggested until the user accepts it.",
        SuggestTask.class, TaskAnswer.class, CREATE,
        (actor, in) -> say.suggested(board.createTask(actor, new BoardApi.TaskCreate(
            in.project(), in.title(), in.description(), null, in.priority(), in.tags(), in.blockedBy(), true,
            null, null, null, null))));
    add(registry, timeout, "list_tasks",
        "List tasks in board order, filtered by project, status, tag and text, a page at a time.",
        TaskListQuery.class, TasksAnswer.class, READ, (actor, in) -> say.tasks(in, board.tasks(in)));
    add(registry, timeout, "get_task", "Read one task: its fields, status, tags and blocked_by edges.",
        TaskRef.class, TaskAnswer.class, READ, (actor, in) -> say.task(board.task(in.task())));
    add(registry, timeout, "update_task",
        "Change a task's title, description, status, priority, tags or blocked_by; absent fields are kept. Refused"
            + " on a task while a turn runs on it; an edit to another task than your own is recorded and the user"
            + " can revert it.",
        UpdateTask.class, TaskAnswer.class, UPDATE, (actor, in) -> {
          var before = board.task(in.task());
          var after = board.updateTask(actor, new BoardApi.TaskUpdate(
              in.task(), in.title(), in.description(), in.status(), in.priority(), in.tags(), in.blockedBy(),
              null, null, null, null, null, null));
          return say.updated(actor, before, after);
        });
    add(registry, timeout, "move_task",
        "Move a set of tasks together to a status and/or another project. A blocked_by edge survives a project"
            + " move only when both of its tasks move; the answer names every dropped edge.",
        TaskMove.class, MoveAnswer.class, UPDATE, (actor, in) -> say.moved(in, board.moveTasks(actor, in)));
    add(registry, timeout, "withdraw_suggestion",
        "Withdraw a suggestion you filed, with the reason: the card stays on the board as cancelled, tagged"
            + " 'withdrawn', the reason in its description.",
        WithdrawSuggestion.class, TaskAnswer.class, UPDATE,
        (actor, in) -> say.withdrawn(board.withdrawSuggestion(actor, in.task(), in.reason())));
    add(registry, timeout, "list_tags", "List tags with how many tasks carry each (in one project, or everywhere).",
        TagQuery.class, TagsAnswer.class, READ, (actor, in) -> say.tags(in, board.tags(in.project())));
    add(registry, timeout, "update_tag", "Rename a tag everywhere, or set its color or description.",
        TagUpdate.class, TagAnswer.class, UPDATE, (actor, in) -> say.tag(in, board.updateTag(actor, in)));
    add(registry, timeout, "list_projects", "List every project: id, name and repository path.",
        NoInput.class, ProjectsAnswer.class, READ, (actor, in) -> say.projects(board.projects()));
    add(registry, null, "ask_user",
        "Ask the user a question and wait for the answer (your turn is parked until it comes). Give options for"
            + " a choice, none for free text. Only during a turn; in an unattended run no one can answer, so asking fails the run.",
        AskUser.class, UserAnswer.class, CREATE, (actor, in) -> answer(runner.ask(actor, question(in), options(in))));
  }

  /**
   * Registers one more agent tool behind the same guard as these (another package's tools, such as the
   * runbooks'): its answer opens with a summary, a refusal names the tool, it answers within {@link #TIMEOUT}.
   * Its name must also be in {@code AgentToolsApi.NAMES}.
   */
  public static <I, O extends Answer> void add(
      OperationRegistry registry, String name, String description, Class<I> input, Class<O> output,
      OperationAnnotations effect, Handler<I, O> handler) {
    add(registry, TIMEOUT, name, description, input, output, effect, handler);
  }

  private static <I, O extends Answer> void add(
      OperationRegistry registry, Duration timeout, String name, String description, Class<I> input, Class<O> output,
      OperationAnnotations effect, Handler<I, O> handler) {
    registry.register(Operation.of(name, description, input, output, effect, AnswerGuard.guard(name, timeout, handler)));
  }

  private static String question(AskUser in) {
    String question = in.question() == null ? "" : in.question().strip();
    if (question.isEmpty()) {
      throw new RoundhouseException.InvalidInput("question must not be empty");
    }
    if (question.length() > MAX_QUESTION) {
      throw new RoundhouseException.InvalidInput("question is " + question.length() + " characters; at most " + MAX_QUESTION);
    }
    return question;
  }

  private static List<String> options(AskUser in) {
    List<String> options = in.options() == null ? List.of() : in.options().stream().map(String::strip).distinct().toList();
    if (options.size() > MAX_OPTIONS) {
      throw new RoundhouseException.InvalidInput("offer at most " + MAX_OPTIONS + " options, not " + options.size());
    }
    if (options.stream().anyMatch(String::isEmpty)) {
      throw new RoundhouseException.InvalidInput("an option must not be empty");
    }
    return options;
  }

  private static UserAnswer answer(Decision closed) {
    if (!closed.status().equals(Decision.ANSWERED)) {
      throw new RoundhouseException("no_answer",
          "ask_user got no answer to question " + closed.id() + (closed.message() == null ? "" : ": " + closed.message()));
    }
    return new UserAnswer(
        "ask_user: " + closed.closedBy() + " answered question " + closed.id() + (closed.message() == null ? "" : " (note: " + closed.message() + ")"),
        closed.answer(), closed.id());
  }
}
