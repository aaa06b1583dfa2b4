package dev.roundhouse.hub.retention;

import static dev.roundhouse.hub.ops.OperationAnnotations.DESTRUCTIVE;
import static dev.roundhouse.hub.ops.OperationAnnotations.READ;

import dev.roundhouse.hub.api.BoardApi.NoInput;
import dev.roundhouse.hub.api.RetentionApi;
import dev.roundhouse.hub.ops.Operation;
import dev.roundhouse.hub.ops.OperationRegistry;

/** Registers the retention operations; the rules live in {@link Retention}. */
public final class RetentionOperations {
  private RetentionOperations() {}

  public static void register(OperationRegistry registry, Retention retention) {
    registry.register(Operation.of(
        "retention_prune",
        "Prune the events (transcripts) of finished tasks idle at least 'days' days (the policy's when absent),"
            + " never a task with queued messages, a running or lingering turn, a pending decision, a schedule run"
            + " in flight or a module's record (its worktree); each keeps its row, turns and a task.pruned event."
            + " Then the database file is shrunk. With dry_run, only lists what it would prune.",
        RetentionApi.PruneRequest.class, RetentionApi.PruneResult.class, DESTRUCTIVE,
        (actor, in) -> retention.prune(actor, in)));
    registry.register(Operation.of(
        "retention_status",
        "The retention policy (idle days, automatic or off, the database's vacuum mode), the last prune since"
            + " the hub started, and what a prune would remove now.",
        NoInput.class, RetentionApi.Status.class, READ, (actor, in) -> retention.status()));
  }
}
