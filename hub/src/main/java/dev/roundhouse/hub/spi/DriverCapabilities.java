package dev.roundhouse.hub.spi;

import java.util.List;
import java.util.Set;

/**
 * What a driver can do, as data: faces and pickers read these and never branch on a driver id. Immutable.
 *
 * @param displayName what a picker shows, such as "Claude Code"
 * @param models models the driver can use (read from the agent where possible); may be empty
 * @param permissionModes the agent's permission modes; may be empty
 * @param supportsAsks the agent can ask the user questions through the hub
 * @param reportsCost usage events carry a cost
 * @param supportsResume a later turn can resume the agent's session
 * @param supportsLinger after answering, the session stays open and takes the next message directly
 * @param readOnlyTools tool names that only read, which the permission gate allows without asking
 */
public record DriverCapabilities(
    String displayName,
    List<String> models,
    List<String> permissionModes,
    boolean supportsAsks,
    boolean reportsCost,
    boolean supportsResume,
    boolean supportsLinger,
    Set<String> readOnlyTools) {

  public DriverCapabilities {
    models = List.copyOf(models);
    permissionModes = List.copyOf(permissionModes);
    readOnlyTools = Set.copyOf(readOnlyTools);
  }
}
