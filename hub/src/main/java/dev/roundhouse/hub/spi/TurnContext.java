package dev.roundhouse.hub.spi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.process.ProcessLauncher;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import dev.roundhouse.hub.core.RoundhouseException;

/**
 * What the runner gives a driver for one turn. Every method may block (the driver runs on a virtual
 * thread of its own) and all of them are safe to call from the driver's other threads too (a stdout
 * reader, say).
 *
 * <p>Thread-safe.
 */
public interface TurnContext {

  /**
   * Records and publishes an event, returning once it is durable (transient events are only published).
   *
   * @throws TurnStoppedException once the turn has been stopped, so a driver that keeps emitting unwinds
   */
  void emit(TurnEvent event);

  /**
   * Asks the permission gate whether the agent may use a tool: the read-only allowlist, then the
   * project's remembered rules, otherwise a decision parked on a human. Blocks until decided. A
   * non-answer of any kind comes back as a denial. The gate itself records the request and any denial
   * in the transcript ({@code turn.permission_requested}, {@code turn.permission_denied}): drivers emit
   * neither, only what the agent does next.
   */
  PermissionVerdict requestPermission(PermissionRequest request);

  /**
   * Asks the user a question, parking the turn until it is answered.
   *
   * @param options choices to offer, or empty for a free-text answer
   * <p>In an unattended turn nobody can answer: the question is recorded ({@code turn.question_refused}), the
   * turn is stopped and ends {@code failed} with a reason naming the question, and this returns empty at once.
   *
   * @return the answer, or empty when there was none (stop, timeout, unattended run)
   */
  Optional<String> ask(String question, List<String> options);

  /**
   * For a driver that supports linger: after emitting a {@link TurnEvent.Result}, waits for the next
   * message sent to this task and returns it; empty when the turn should end (stopped, or nothing came
   * within the linger time; at once in an unattended turn, which never lingers). The message has already
   * been recorded in the transcript.
   */
  Optional<String> awaitNextMessage();

  /** True once {@code turn_stop} was called for this turn. */
  boolean isStopped();

  /**
   * Registers something to do when the turn is stopped (interrupt the agent, kill its process group).
   * Runs once, on the thread that stops the turn; if the turn is already stopped it runs at once.
   */
  void onStop(Runnable action);

  /** The hub operations this task's agent may call, as tools (names and schemas from the registry). */
  List<OperationDescriptor> tools();

  /**
   * Calls a hub operation as this task's agent (its actor rules apply).
   *
   * @throws RoundhouseException with a sentence naming what was wrong
   */
  JsonNode callTool(String name, JsonNode input);

  /**
   * The hub's MCP endpoint with a token scoped to this task, for an agent CLI that takes MCP servers
   * (opened on first call, revoked when the turn ends); empty when the hub serves no MCP endpoint.
   */
  Optional<AgentEndpoint> agentEndpoint();

  /** The hub's clock. */
  Clock clock();

  /**
   * Starts the turn's child processes (the agent CLI, the commands it runs): each in a process group of its
   * own, under the turn's run marker, in the turn's cgroup where the hub makes one, and with a parent-death
   * signal where the machine offers it; journaled so that a boot after a crash reaps them. Whatever is still
   * running when the driver's {@link AgentDriver#run} returns is killed. A driver never calls
   * {@link ProcessBuilder#start} itself for the turn.
   */
  default ProcessLauncher processes() {
    return ProcessLauncher.ownGroup();
  }

  /**
   * The task's conversation before this turn, oldest first: every earlier turn of the task's current
   * generation (a {@code task_clear} starts a new one; its summary is in {@link TurnRequest#priorSummaries}),
   * whichever driver ran it, as the transcript stored it. This turn's own message is {@link
   * TurnRequest#message()} and is not included. For a driver whose agent keeps no session of its own (the
   * OpenAI-compatible driver), so that a second message continues the conversation; a driver that resumes
   * its agent's session need not ask. Read from the store on each call (nothing is computed unless asked).
   *
   * <p>Tool calls and results are as recorded: a call whose turn ended before it finished has no result,
   * and events the retention policy pruned are missing.
   */
  default List<ConversationEntry> history() {
    return List.of();
  }
}
