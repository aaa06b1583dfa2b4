package dev.roundhouse.hub.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.model.QueuedMessage;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.model.TurnStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Changes to turns, queue, decisions, rules; inside the writer's transaction. Writer thread only. */
public interface RunnerWrites extends RunnerReads {
  Turn insertTurn(long task, int generation, String driver, boolean unattended, Actor startedBy, Instant at);

  void setTurnStatus(long turn, TurnStatus status);

  /** Leases {@code turn} to {@code worker} until {@code until}. */
  void leaseTurn(long turn, String worker, Instant until);

  /** Extends to {@code until} the leases of {@code worker}'s running and lingering turns; returns their ids. */
  List<Long> renewLeases(String worker, Instant until);

  void setTurnSession(long turn, String sessionId);

  void setTurnIdle(long turn, boolean idle);

  void endTurn(long turn, TurnStatus status, String reason, Instant at);

  QueuedMessage enqueue(long task, String message, String driver, Actor by, Instant at);

  /** Removes and returns the task's oldest queued message. */
  Optional<QueuedMessage> dequeue(long task);

  Decision insertDecision(
      String kind, Long project, Long task, Long turn, String title, JsonNode request, List<String> options, Instant at);

  void closeDecision(long decision, String status, String answer, String message, Actor by, Instant at);

  void insertRule(long project, String tool, String prefix, Actor by, Instant at);

  void putSettingsHash(long project, String driver, String path, String sha256, Instant at);

  void insertGeneration(long task, int generation, String summary, String summarisedBy, long lastSeq, Instant at);

  void setGeneration(long task, int generation);
}
