package dev.roundhouse.hub;

import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.ops.OperationRegistry;
import java.util.List;
import dev.roundhouse.hub.board.Board;
import dev.roundhouse.hub.board.BoardOperations;
import dev.roundhouse.hub.agenttools.AgentTools;
import dev.roundhouse.hub.retention.Retention;
import dev.roundhouse.hub.retention.RetentionOperations;
import dev.roundhouse.hub.retention.RetentionSettings;
import dev.roundhouse.hub.schedules.SchedulerSettings;
import dev.roundhouse.hub.schedules.Scheduling;
import dev.roundhouse.hub.turns.TurnOperations;
import java.time.Clock;

/**
 * The descriptors of every operation without opening a hub, for generated documentation and clients that
 * describe operations offline. The registry built here is never invoked: its board has no store.
 */
public final class OperationCatalog {
  private OperationCatalog() {}

  public static List<OperationDescriptor> describe() {
    OperationRegistry registry = OperationRegistry.create();
    BoardOperations.register(registry, new Board(null));
    TurnOperations.register(registry, null, null, null, null, null, Clock.systemUTC());
    AgentTools.register(registry, new Board(null), null);
    RetentionOperations.register(registry, new Retention(null, RetentionSettings.DEFAULTS, Clock.systemUTC()));
    Scheduling.create(null, new Board(null), null, null, Clock.systemUTC(), SchedulerSettings.DEFAULTS, registry);
    return registry.list();
  }
}
