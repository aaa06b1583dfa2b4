package dev.roundhouse.hub.store;

import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.model.PermissionRule;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.model.Generation;
import dev.roundhouse.hub.model.QueuedMessage;
import dev.roundhouse.hub.model.Turn;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Queries for turns, decisions and their rules. Not thread-safe: used by the thread that was handed it. */
public interface RunnerReads {
  Optional<Turn> turn(long id);

  /** The task's running or lingering turn. */
  Optional<Turn> activeTurn(long task);

  /** The task's turns, newest first. */
  List<Turn> turns(long task, int limit);

  /** Every running or lingering turn. */
  List<Turn> activeTurns();

  /**
   * The running or lingering turns no live worker holds: leased to a worker other than {@code worker} with
   * the lease run out at {@code now}, or never leased (begun before leases existed).
   */
  List<Turn> orphanedTurns(String worker, java.time.Instant now);

  /** The worker that holds {@code turn}'s lease, if any. */
  Optional<String> turnWorker(long turn);

  /** The task's queued messages, oldest first. */
  List<QueuedMessage> queue(long task);

  Optional<Decision> decision(long id);

  /**
   * Decisions, newest first.
   *
   * @param pendingOnly only those still waiting
   * @param project only this project's, when not null
   * @param task only this task's, when not null
   */
  List<Decision> decisions(boolean pendingOnly, Long project, Long task, int limit);

  /** Pending decisions per project id (null key: decisions with no project). */
  Map<Long, Integer> pendingCounts();

  /** How many turns there are of each driver in each status ({@code GET /metrics}). */
  List<TurnCount> turnCounts();

  /** Messages waiting in every task's turn queue. */
  int queuedMessages();

  /** One driver's turns in one status. */
  record TurnCount(String driver, String status, long turns) {}

  List<PermissionRule> rules(long project);

  /** Stored settings-file hashes of a project's driver, by path. */
  Map<String, String> settingsHashes(long project, String driver);

  /** The task's current generation (1 until the first {@code task_clear}). */
  int generation(long task);

  /** The task's finished generations, oldest first. */
  List<Generation> generations(long task);

  /**
   * The task's events above {@code after} (and at most {@code upTo}), oldest first.
   *
   * @param transcriptOnly only {@code turn.*} and {@code decision.*} events, and the {@code task.pruned} marker
   *     that says where the retention policy removed them
   */
  List<Event> taskEvents(long task, long after, long upTo, int limit, boolean transcriptOnly);

  /**
   * One turn's stored events of the given types (such as {@code turn.permission_denied}), oldest first: the
   * task's events whose {@code data.turn} is {@code turn}.
   */
  List<Event> turnEvents(long task, long turn, Collection<String> types, int limit);
}
