package dev.roundhouse.mcpserver;

import dev.roundhouse.hub.core.FailureLog;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.spi.ExtensionResource;
import dev.roundhouse.hub.ext.ExtensionResources;
import io.modelcontextprotocol.server.McpServerFeatures.SyncCompletionSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The resources extensions offer ({@link ExtensionResources}), as MCP resources and resource templates beside
 * the hub's own ({@link HubResources}). A read runs the extension's reader as the calling client; an agent
 * session may read one only if it is offered the resource's operation as a tool (as it may call only those).
 * Errors: an unknown URI, or a {@link RoundhouseException.NotFound} from the reader (an unknown calendar), is
 * {@code -32002} (resource not found) with the sentence and the URI; another refusal is {@code -32603} with its
 * sentence; an unexpected failure is {@code -32603} naming a log reference, never a trace. Stateless; thread-safe.
 */
final class ExtensionResourceSpecs {
  private static final Logger log = LoggerFactory.getLogger(ExtensionResourceSpecs.class);

  private ExtensionResourceSpecs() {}

  /**
   * The fixed resources, refusing one whose URI the endpoint already serves ({@code taken}): an extension
   * cannot shadow the hub's resources.
   */
  static List<SyncResourceSpecification> resources(ExtensionResources resources, Set<String> taken) {
    return resources.list().stream().filter(resource -> !resource.isTemplate()).map(resource -> {
      refuseTaken(resource, taken);
      return new SyncResourceSpecification(
          McpSchema.Resource.builder(resource.uri(), resource.name()).title(resource.title())
              .description(resource.description()).mimeType(resource.mimeType()).build(),
          (exchange, request) -> read(resources, exchange, request.uri()));
    }).toList();
  }

  /** The templates, refusing one the endpoint already serves. */
  static List<SyncResourceTemplateSpecification> templates(ExtensionResources resources, Set<String> taken) {
    return resources.list().stream().filter(ExtensionResource::isTemplate).map(resource -> {
      refuseTaken(resource, taken);
      return new SyncResourceTemplateSpecification(
          McpSchema.ResourceTemplate.builder(resource.uri(), resource.name()).title(resource.title())
              .description(resource.description()).mimeType(resource.mimeType()).build(),
          (exchange, request) -> read(resources, exchange, request.uri()));
    }).toList();
  }

  /**
   * Completion of the templates' variables, for those whose extension offers values; a caller that may not
   * read the resource is offered none.
   */
  static List<SyncCompletionSpecification> completions(ExtensionResources resources) {
    return resources.list().stream().filter(resource -> resource.isTemplate() && resource.completer() != null)
        .map(resource -> HubResources.completion(new McpSchema.ResourceReference(resource.uri()), (exchange, variable) ->
            resource.variables().contains(variable) && mayRead(resource, Caller.of(exchange))
                ? resource.completer().values(Caller.actor(exchange), variable)
                : List.<String>of()))
        .toList();
  }

  private static boolean mayRead(ExtensionResource resource, Caller caller) {
    return resource.operation() == null || caller.offered(resource.operation());
  }

  private static void refuseTaken(ExtensionResource resource, Set<String> taken) {
    if (taken.contains(resource.uri())) {
      throw new RoundhouseException("mcp_unavailable", "an extension offers the resource " + resource.uri()
          + ", which the hub serves itself; give it another URI");
    }
  }

  static McpSchema.ReadResourceResult read(ExtensionResources resources, McpSyncServerExchange exchange, String uri) {
    ExtensionResources.Found found = resources.find(uri).orElseThrow(() -> notFound(uri, "no resource " + uri));
    ExtensionResource resource = found.resource();
    Caller caller = Caller.of(exchange);
    if (!mayRead(resource, caller)) {
      throw notFound(uri, "no resource " + uri + " for an agent session (it follows " + resource.operation()
          + ", which this task's agent is not offered)");
    }
    ExtensionResource.Contents contents;
    try {
      contents = found.read(Caller.actor(exchange));
    } catch (RoundhouseException.NotFound e) {
      throw notFound(uri, e.getMessage());
    } catch (RoundhouseException e) {
      throw McpError.builder(McpSchema.ErrorCodes.INTERNAL_ERROR).message(e.getMessage()).data(Map.of("uri", uri)).build();
    } catch (RuntimeException e) {
      String ref = FailureLog.logged(log, "reading resource " + uri + " failed", e);
      throw McpError.builder(McpSchema.ErrorCodes.INTERNAL_ERROR)
          .message("internal error reading " + uri + "; the hub log has the details under reference " + ref)
          .data(Map.of("uri", uri)).build();
    }
    McpSchema.TextResourceContents.Builder text = McpSchema.TextResourceContents.builder(uri, contents.text()).mimeType(contents.mimeType());
    if (!contents.meta().isEmpty()) {
      text.meta(new LinkedHashMap<>(contents.meta()));
    }
    return McpSchema.ReadResourceResult.builder(List.of(text.build())).build();
  }

  private static McpError notFound(String uri, String message) {
    return McpError.builder(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND).message(message).data(Map.of("uri", uri)).build();
  }
}
