package dev.roundhouse.hub.turns;

import static dev.roundhouse.hub.ops.OperationAnnotations.CREATE;
import static dev.roundhouse.hub.ops.OperationAnnotations.DESTRUCTIVE;
import static dev.roundhouse.hub.ops.OperationAnnotations.READ;
import static dev.roundhouse.hub.ops.OperationAnnotations.UPDATE;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.api.BoardApi.NoInput;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.decisions.Decisions;
import dev.roundhouse.hub.decisions.PermissionRules;
import dev.roundhouse.hub.ops.Operation;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.api.TurnApi.DecisionAnswer;
import dev.roundhouse.hub.api.TurnApi.DecisionList;
import dev.roundhouse.hub.api.TurnApi.DecisionQuery;
import dev.roundhouse.hub.api.TurnApi.DriverInfo;
import dev.roundhouse.hub.api.TurnApi.DriverList;
import dev.roundhouse.hub.api.TurnApi.DriverRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import dev.roundhouse.hub.api.TurnApi;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.AuthStatus;
import dev.roundhouse.hub.model.PermissionRule;
import java.time.Clock;

/** Registers the runner's, transcripts' and decisions' operations; the rules live in those classes. */
public final class TurnOperations {
  private TurnOperations() {}

  public static void register(
      OperationRegistry registry, TurnRunner runner, Transcripts transcripts, Decisions decisions, DriverRegistry drivers, Store store,
      Clock clock) {
    registry.register(Operation.of(
        "turn_start",
        "Start an agent turn on a task; returns at once while the turn runs in the hub. Refused when the task"
            + " already has a turn running (use turn_send to queue a message).",
        TurnApi.TurnStart.class, TurnApi.TurnView.class, CREATE, (actor, in) -> runner.start(actor, in)));
    registry.register(Operation.of(
        "turn_send",
        "Send a message to a task: a lingering session takes it next, a running turn queues it (in order),"
            + " and with no turn it starts one.",
        TurnApi.TurnSend.class, TurnApi.SendResult.class, CREATE, (actor, in) -> runner.send(actor, in)));
    registry.register(Operation.of(
        "turn_stop",
        "Stop the task's turn: the agent is interrupted and its pending permissions are denied. Queued"
            + " messages stay queued.",
        TurnApi.TaskRef.class, TurnApi.TurnView.class, DESTRUCTIVE, (actor, in) -> runner.stop(actor, in.task())));
    registry.register(Operation.of(
        "turn_list", "A task's turns, newest first, and the messages queued behind them.",
        TurnApi.TurnListQuery.class, TurnApi.TurnList.class, READ, (actor, in) -> store.read(r -> {
          r.task(in.task()).orElseThrow(() -> new RoundhouseException.NotFound("no task " + in.task()));
          int limit = in.limit() == null ? 20 : Math.min(in.limit(), 500); // at least 1: the registry's paging rule (Schemas)
          return new TurnApi.TurnList(r.runner().turns(in.task(), limit), r.runner().queue(in.task()));
        })));
    registry.register(Operation.of(
        "turn_outcome",
        "How a task's run ended, judged from its turn (the latest by default): running, done, failed, denied (a"
            + " permission was denied) or needed_person (a question or settings drift in an unattended run), with the"
            + " reason and the count of denied permissions. What roundhouse run and a schedule's history report.",
        TurnApi.TurnOutcomeQuery.class, TurnApi.TurnOutcomeView.class, READ, (actor, in) -> outcome(store, in)));
    registry.register(Operation.of(
        "task_transcript",
        "Read a task's transcript (turn and decision events) for one generation, a page at a time.",
        TurnApi.TranscriptQuery.class, TurnApi.Transcript.class, READ, (actor, in) -> transcripts.read(in)));
    registry.register(Operation.of(
        "task_clear",
        "End the task's generation: the transcript is condensed into a summary and the next turn starts a"
            + " fresh session seeded with every earlier summary.",
        TurnApi.TaskRef.class, TurnApi.Cleared.class, UPDATE, (actor, in) -> transcripts.clear(actor, in.task())));
    registry.register(Operation.of(
        "decision_list",
        "What needs you: pending decisions (permissions, questions, settings drift), with counts per project.",
        DecisionQuery.class, DecisionList.class, READ, (actor, in) -> list(store, in)));
    registry.register(Operation.of(
        "decision_answer",
        "Answer a pending decision. For a permission, allow_always also remembers a rule for the project (a"
            + " command prefix for shell tools; too broad a prefix is refused with the reason).",
        DecisionAnswer.class, Decision.class, UPDATE, (actor, in) -> answer(decisions, store, actor, in)));
    AuthStatuses statuses = new AuthStatuses(clock);
    registry.register(Operation.of(
        "driver_list",
        "The agent drivers this hub can run, with their capabilities and whether they are ready (installed,"
            + " which version, logged in or keyed; checked at most every 30 s).",
        NoInput.class, DriverList.class, READ, (actor, in) -> driverList(drivers, statuses)));
    registry.register(Operation.of(
        "driver_verify", "Test a driver for real (a round trip to its agent or endpoint); says what is wrong in one sentence.",
        DriverRef.class, AuthStatus.class, READ, (actor, in) -> statuses.verify(drivers.get(in.driver()))));
  }

  private static TurnApi.TurnOutcomeView outcome(Store store, TurnApi.TurnOutcomeQuery in) {
    return store.read(r -> {
      r.task(in.task()).orElseThrow(() -> new RoundhouseException.NotFound("no task " + in.task()));
      long turn;
      if (in.turn() == null) {
        turn = r.runner().turns(in.task(), 1).stream().findFirst()
            .orElseThrow(() -> new RoundhouseException.NotFound("task " + in.task() + " has no turns yet"))
            .id();
      } else {
        turn = in.turn();
        r.runner().turn(turn).filter(t -> t.taskId() == in.task())
            .orElseThrow(() -> new RoundhouseException.NotFound("no turn " + in.turn() + " on task " + in.task()));
      }
      RunOutcomes.Verdict verdict = RunOutcomes.judge(r, turn);
      return new TurnApi.TurnOutcomeView(in.task(), turn, verdict.turn().status(), verdict.outcome(), verdict.reason(),
          verdict.deniedPermissions(), verdict.refusedQuestions(), verdict.turn().unattended());
    });
  }

  private static DriverList driverList(DriverRegistry drivers, AuthStatuses statuses) {
    List<AgentDriver> all = drivers.list();
    List<AuthStatus> auth = statuses.of(all);
    List<DriverInfo> infos = new ArrayList<>(all.size());
    for (int i = 0; i < all.size(); i++) {
      infos.add(new DriverInfo(all.get(i).id(), all.get(i).capabilities(), auth.get(i)));
    }
    return new DriverList(infos);
  }

  private static DecisionList list(Store store, DecisionQuery in) {
    int limit = in.limit() == null ? 200 : in.limit();
    if (limit < 1 || limit > 1000) {
      throw new RoundhouseException.InvalidInput("limit must be between 1 and 1000, not " + limit);
    }
    return store.read(r -> {
      Long project = null;
      if (in.project() != null) {
        String ref = in.project().strip();
        Project found = (ref.chars().allMatch(Character::isDigit) && !ref.isEmpty()
                ? r.project(Long.parseLong(ref)) : r.projectByName(ref))
            .orElseThrow(() -> new RoundhouseException.NotFound("no project '" + in.project() + "'"));
        project = found.id();
      }
      List<Decision> decisions = r.runner().decisions(!Boolean.TRUE.equals(in.includeClosed()), project, in.task(), limit);
      List<TurnApi.ProjectCount> counts = new ArrayList<>();
      int total = 0;
      for (Map.Entry<Long, Integer> entry : r.runner().pendingCounts().entrySet()) {
        String name = entry.getKey() == null ? null : r.project(entry.getKey()).map(Project::name).orElse(null);
        counts.add(new TurnApi.ProjectCount(entry.getKey(), name, entry.getValue()));
        total += entry.getValue();
      }
      return new DecisionList(decisions, total, counts);
    });
  }

  private static Decision answer(Decisions decisions, Store store, Actor actor, DecisionAnswer in) {
    return decisions.answer(actor, in.decision(), in.answer(), in.message(), w -> {
      Decision decision = w.runner().decision(in.decision()).orElseThrow();
      if (!decision.kind().equals(Decision.PERMISSION) || !"allow_always".equals(in.answer() == null ? null : in.answer().strip())) {
        return;
      }
      String tool = decision.request().path("tool").asText();
      String command = decision.request().hasNonNull("command") ? decision.request().get("command").asText() : null;
      String prefix = command == null ? "" : PermissionRules.checkShellPrefix(in.rule() != null ? in.rule() : command);
      if (command != null && !PermissionRules.allows(
          new PermissionRule(0, 0, tool, prefix, actor, w.now()), tool, command)) {
        throw new RoundhouseException.InvalidInput(
            "rule_mismatch", "the rule '" + prefix + "' does not allow the command it answers ('" + command + "')");
      }
      w.runner().insertRule(decision.projectId(), tool, prefix, actor, w.now());
    });
  }
}
