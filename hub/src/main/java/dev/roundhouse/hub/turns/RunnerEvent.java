package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.events.HubEvent;
import dev.roundhouse.hub.model.TurnStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The events the runner records about a turn's life (what a driver reports is a {@code TurnEvent}); payloads
 * as in docs/events.md. Immutable.
 */
sealed interface RunnerEvent extends HubEvent {

  /**
   * A turn began, by whoever sent its message; {@code mcpServers} names the MCP servers a face gave it (name
   * and transport only, never their env or headers), null when none.
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  record Started(long turn, String driver, boolean unattended, List<Map<String, String>> mcpServers) implements RunnerEvent {
    @Override
    public String type() {
      return "turn.started";
    }
  }

  /** The message a turn answers (a first message, or the next one a lingering session takes). */
  record UserMessage(long turn, String text) implements RunnerEvent {
    @Override
    public String type() {
      return "turn.user_message";
    }
  }

  /** A message waits for the running turn; {@code position} in the task's queue. */
  record Queued(long turn, String text, int position) implements RunnerEvent {
    @Override
    public String type() {
      return "turn.queued";
    }
  }

  /** Where a module placed the turn, before its driver starts. */
  record Placed(long turn, String workingDirectory, List<String> notes) implements RunnerEvent {
    public Placed {
      notes = List.copyOf(notes);
    }

    @Override
    public String type() {
      return "turn.placed";
    }
  }

  /** The watchdog saw nothing from the turn for the idle time. */
  record Idle(long turn, Instant idleSince) implements RunnerEvent {
    @Override
    public String type() {
      return "turn.idle";
    }
  }

  /** An idle turn produced something again. */
  record Active(long turn) implements RunnerEvent {
    @Override
    public String type() {
      return "turn.active";
    }
  }

  /** The model is done and the session waits for the next message. */
  record Lingering(long turn) implements RunnerEvent {
    @Override
    public String type() {
      return "turn.lingering";
    }
  }

  /**
   * An unattended turn's agent asked a question no one can answer: the run fails (the turn ends {@code failed}
   * with a reason naming the question).
   */
  record QuestionRefused(long turn, String question, List<String> options) implements RunnerEvent {
    public QuestionRefused {
      options = List.copyOf(options);
    }

    @Override
    public String type() {
      return "turn.question_refused";
    }
  }

  /**
   * An unattended turn found its driver's settings changed outside the hub and refused to start the agent (the
   * turn ends {@code failed}); {@code files} are the changed paths.
   */
  record DriftRefused(long turn, String driver, List<String> files) implements RunnerEvent {
    public DriftRefused {
      files = List.copyOf(files);
    }

    @Override
    public String type() {
      return "turn.drift_refused";
    }
  }

  /**
   * Someone asked, at another hub worker, to stop a turn this worker runs: the worker running it stops it
   * as {@code turn_stop} does there.
   */
  record StopRequested(long turn, String worker) implements RunnerEvent {
    @Override
    public String type() {
      return "turn.stop_requested";
    }
  }

  /** A turn ended: how, and why when there is more to say than its status. */
  record Ended(long turn, TurnStatus status, String reason) implements RunnerEvent {
    @Override
    public String type() {
      return "turn.ended";
    }
  }

  /** A task's context was cleared: one generation ended with a summary, the next begins seeded with it. */
  record Cleared(int endedGeneration, int generation, String summary, String summarisedBy) implements RunnerEvent {
    @Override
    public String type() {
      return "task.cleared";
    }
  }
}
