package dev.roundhouse.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.ExtensionResource;
import dev.roundhouse.hub.spi.HubExtension;
import dev.roundhouse.hub.testing.TestHub;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Resources an extension offers, listed and read over MCP beside the hub's own, with clear errors, and
 * subscribed to: the changes the extension reports reach the sessions subscribed to those URIs.
 */
@SuppressWarnings("deprecation") // the SDK deprecates the one-argument request constructors without a replacement this test needs
class McpExtensionResourcesTest {
  private static final Set<String> ITEMS = Set.of("lamp", "saw");

  /**
   * Offers an inventory, one item per template value, and a resource whose reader fails unexpectedly; keeps its
   * context, through which the tests report changes.
   */
  record ShopExtension(List<ExtensionResource> resources, AtomicReference<ExtensionContext> context) implements HubExtension {
    ShopExtension(List<ExtensionResource> resources) {
      this(resources, new AtomicReference<>());
    }

    @Override
    public String name() {
      return "shop";
    }

    @Override
    public void start(ExtensionContext given) {
      resources.forEach(given::offerResource);
      context.set(given);
    }
  }

  private static List<ExtensionResource> shop() {
    return List.of(
        new ExtensionResource("shop://inventory", "inventory", "Inventory", "Every item.", "application/json", null,
            (actor, uri, variables) -> new ExtensionResource.Contents("application/json", "{\"items\":[\"lamp\",\"saw\"],\"reader\":\"" + actor + "\"}",
                Map.of("version", "3"))),
        new ExtensionResource("shop://items/{item}", "item", "An item", "One item by name.", "text/plain", null,
            (actor, uri, variables) -> {
              String item = variables.get("item");
              if (!ITEMS.contains(item)) {
                throw new RoundhouseException.NotFound("no item '" + item + "'; the shop has lamp, saw");
              }
              return new ExtensionResource.Contents("text/plain", "a " + item, Map.of());
            }),
        new ExtensionResource("shop://broken", "broken", "Broken", "Always fails.", "text/plain", null,
            (actor, uri, variables) -> {
              throw new IllegalStateException("secret internals at line 42");
            }));
  }

  private TestHub hub;
  private String mcpToken;
  private final ShopExtension shop = new ShopExtension(shop());

  @BeforeEach
  void start() throws Exception {
    hub = TestHub.withExtensionsAndMounts(c -> c, List.of(), List.of(shop), h -> List.of(McpServers.streamableHttp(h)));
    mcpToken = Files.readString(McpServers.tokenFile(hub.home())).strip();
  }

  @AfterEach
  void stop() {
    hub.close();
  }

  private McpSyncClient client() {
    return McpClients.connect(hub.server().url(), mcpToken, "shopper");
  }

  private static int code(Throwable error) {
    return ((McpError) error).getJsonRpcError().code();
  }

  @Test
  void extensionResourcesAreListedBesideTheHubsOwn() {
    try (McpSyncClient client = client()) {
      assertThat(client.listResources().resources()).extracting(McpSchema.Resource::uri)
          .contains("roundhouse://projects", "roundhouse://decisions", "shop://inventory", "shop://broken");
      McpSchema.Resource inventory = client.listResources().resources().stream()
          .filter(resource -> resource.uri().equals("shop://inventory")).findFirst().orElseThrow();
      assertThat(inventory.title()).isEqualTo("Inventory");
      assertThat(inventory.mimeType()).isEqualTo("application/json");
      assertThat(client.listResourceTemplates().resourceTemplates()).extracting(McpSchema.ResourceTemplate::uriTemplate)
          .contains("roundhouse://tasks/{id}", "shop://items/{item}");
    }
  }

  @Test
  void aReadRunsTheReaderAsTheCallingClient() {
    try (McpSyncClient client = client()) {
      McpSchema.TextResourceContents inventory = (McpSchema.TextResourceContents)
          client.readResource(new McpSchema.ReadResourceRequest("shop://inventory")).contents().getFirst();
      assertThat(inventory.text()).isEqualTo("{\"items\":[\"lamp\",\"saw\"],\"reader\":\"client:shopper\"}");
      assertThat(inventory.mimeType()).isEqualTo("application/json");
      assertThat(inventory.meta()).containsEntry("version", "3");
      McpSchema.TextResourceContents lamp = (McpSchema.TextResourceContents)
          client.readResource(new McpSchema.ReadResourceRequest("shop://items/lamp")).contents().getFirst();
      assertThat(lamp.text()).isEqualTo("a lamp");
      assertThat(lamp.uri()).isEqualTo("shop://items/lamp");
    }
  }

  @Test
  void anUnknownItemIsResourceNotFoundWithTheReadersSentence() {
    try (McpSyncClient client = client()) {
      assertThatThrownBy(() -> client.readResource(new McpSchema.ReadResourceRequest("shop://items/drill")))
          .isInstanceOf(McpError.class)
          .hasMessageContaining("no item 'drill'; the shop has lamp, saw")
          .satisfies(e -> assertThat(code(e)).isEqualTo(McpSchema.ErrorCodes.RESOURCE_NOT_FOUND));
    }
  }

  @Test
  void anUnexpectedFailureNamesALogReferenceAndNoInternals() {
    try (McpSyncClient client = client()) {
      assertThatThrownBy(() -> client.readResource(new McpSchema.ReadResourceRequest("shop://broken")))
          .isInstanceOf(McpError.class)
          .hasMessageContaining("internal error reading shop://broken; the hub log has the details under reference")
          .satisfies(e -> assertThat(e.getMessage()).doesNotContain("secret internals"))
          .satisfies(e -> assertThat(code(e)).isEqualTo(McpSchema.ErrorCodes.INTERNAL_ERROR));
      // the session survives the error
      assertThat(client.listResources().resources()).isNotEmpty();
    }
  }

  @Test
  void aChangeTheExtensionReportsReachesTheSessionsSubscribedToThatUriOnly() throws Exception {
    BlockingQueue<String> updated = new LinkedBlockingQueue<>();
    try (McpSyncClient client = McpClients.connect(hub.server().url(), mcpToken, "watcher", updated::add)) {
      client.subscribeResource(new McpSchema.SubscribeRequest("shop://items/lamp"));
      client.subscribeResource(new McpSchema.SubscribeRequest("shop://inventory"));
      ExtensionContext context = shop.context().get();
      context.resourcesChanged(Actor.USER, "shop://items/saw"); // no one subscribed to it
      context.resourcesChanged(Actor.USER, "shop://items/lamp");
      assertThat(updated.poll(30, TimeUnit.SECONDS)).as("the template's concrete URI, subscribed to").isEqualTo("shop://items/lamp");
      context.resourcesChanged(Actor.client("restocker"), "shop://inventory");
      // an update for shop://items/saw would have gone out before lamp's, and the client would have had it by now
      assertThat(updated.poll(30, TimeUnit.SECONDS)).as("the next update is the inventory's").isEqualTo("shop://inventory");
      assertThat(updated).as("nothing for shop://items/saw, which no one subscribed to").isEmpty();
    }
  }

  @Test
  void anExtensionCannotShadowAHubResource(@TempDir Path home) {
    ExtensionResource shadow = new ExtensionResource("roundhouse://projects", "projects", "Projects", "Not the hub's.", "text/plain", null,
        (actor, uri, variables) -> new ExtensionResource.Contents("text/plain", "mine", Map.of()));
    try (Hub other = Hub.open(HubConfig.forHome(home), List.of(), List.of(new ShopExtension(List.of(shadow))))) {
      assertThatThrownBy(() -> McpServers.streamableHttp(other))
          .hasMessageContaining("an extension offers the resource roundhouse://projects, which the hub serves itself");
    }
  }
}
