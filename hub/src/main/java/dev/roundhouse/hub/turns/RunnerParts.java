package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.decisions.Decisions;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.hub.spi.AgentEndpoints;
import dev.roundhouse.hub.store.Store;
import java.time.Clock;
import java.util.function.Supplier;

/**
 * What the runner's parts share, handed to each when it is made (never fetched back through getters).
 *
 * @param agentEndpoints the face that serves agents their task-scoped MCP endpoint, as registered now
 * @param processes where each turn's processes are contained and journaled
 * @param worker this hub worker's id in the registry: its turns are leased to it
 */
record RunnerParts(
    Store store,
    EventBus events,
    Decisions decisions,
    OperationRegistry operations,
    RunnerSettings settings,
    Clock clock,
    Supplier<AgentEndpoints> agentEndpoints,
    TurnProcesses processes,
    String worker) {}
