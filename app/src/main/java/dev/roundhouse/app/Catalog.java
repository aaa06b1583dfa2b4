package dev.roundhouse.app;

import dev.roundhouse.hub.OperationCatalog;
import dev.roundhouse.hub.ops.OperationDescriptor;
import dev.roundhouse.hub.ops.OperationRegistry;
import dev.roundhouse.calendaragent.CalendarExtension;
import dev.roundhouse.mcpserver.oauth.McpAuthorization;
import dev.roundhouse.services.hub.ServicesExtension;
import dev.roundhouse.workspace.hub.WorkspaceExtension;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Every operation the {@code roundhouse serve} hub offers, described without opening one: the hub's own
 * ({@link OperationCatalog}) and the calendar's, the workspace's and the services' modules', and the MCP authorization server's. What {@code roundhouse ops} prints and
 * {@code docs/operations.md} holds. Stateless.
 */
final class Catalog {
  private Catalog() {}

  static List<OperationDescriptor> describe() {
    OperationRegistry modules = OperationRegistry.create();
    CalendarExtension.describe(modules);
    WorkspaceExtension.describe(modules);
    ServicesExtension.describe(modules);
    McpAuthorization.describe(modules);
    List<OperationDescriptor> all = new ArrayList<>(OperationCatalog.describe());
    all.addAll(modules.list());
    all.sort(Comparator.comparing(OperationDescriptor::name));
    return List.copyOf(all);
  }
}
