package dev.roundhouse.hub.ext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.events.EventBus;
import dev.roundhouse.hub.events.EventStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.HubExtension;
import dev.roundhouse.hub.spi.ExtensionResource;

/**
 * Extensions offer resources through their context; the registry finds fixed URIs before templates, and an
 * extension's word that a resource changed goes out on the hub's event stream.
 */
class ExtensionResourcesTest {
  @TempDir Path home;

  private static ExtensionResource resource(String uri) {
    return new ExtensionResource(uri, "r", "R", "A resource.", "text/plain", null,
        (actor, read, variables) -> new ExtensionResource.Contents("text/plain", read + " " + variables, Map.of()));
  }

  @Test
  void anOfferedResourceIsListedAndFoundByTheHub() {
    HubExtension extension = new HubExtension() {
      @Override
      public String name() {
        return "things";
      }

      @Override
      public void start(ExtensionContext context) {
        context.offerResource(resource("things://all"));
        context.offerResource(resource("things://items/{item}"));
      }
    };
    try (Hub hub = Hub.open(HubConfig.forHome(home), List.of(), List.of(extension))) {
      assertThat(hub.resources().list()).extracting(ExtensionResource::uri).containsExactly("things://all", "things://items/{item}");
      ExtensionResources.Found found = hub.resources().find("things://items/lamp").orElseThrow();
      assertThat(found.variables()).containsExactly(Map.entry("item", "lamp"));
      assertThat(found.resource().reader().read(Actor.USER, found.uri(), found.variables()).text())
          .isEqualTo("things://items/lamp {item=lamp}");
      assertThat(hub.resources().find("things://items/lamp/more")).isEmpty();
      assertThat(hub.resources().find("things://none")).isEmpty();
    }
  }

  @Test
  void aFixedUriIsFoundBeforeATemplateThatAlsoMatchesIt() {
    ExtensionResources resources = ExtensionResources.create(new EventBus(), Clock.systemUTC());
    resources.add(resource("things://items/{item}"));
    resources.add(resource("things://items/special"));
    assertThat(resources.find("things://items/special").orElseThrow().resource().isTemplate()).isFalse();
    assertThat(resources.find("things://items/other").orElseThrow().resource().isTemplate()).isTrue();
  }

  @Test
  void templatesMatchOneSegmentPerVariable() {
    ExtensionResource template = resource("things://{kind}/items/{item}");
    assertThat(template.variables()).containsExactly("kind", "item");
    assertThat(template.match("things://tools/items/saw")).contains(Map.of("kind", "tools", "item", "saw"));
    assertThat(template.match("things://tools/items/")).isEmpty();
    assertThat(template.match("things://a/b/items/saw")).isEmpty();
    assertThat(template.match("things://tools/items/saw?x=1")).isEmpty();
  }

  @Test
  void aUriOfferedTwiceOrMalformedIsRefusedNamingIt() {
    ExtensionResources resources = ExtensionResources.create(new EventBus(), Clock.systemUTC());
    resources.add(resource("things://all"));
    assertThatThrownBy(() -> resources.add(resource("things://all"))).hasMessageContaining("things://all is offered twice");
    assertThatThrownBy(() -> resource("no-scheme")).hasMessageContaining("'no-scheme' is not scheme://path");
    assertThatThrownBy(() -> resource("things://items/{Item}")).hasMessageContaining("only {name} variables");
  }

  /** Offers {@code things://all} and {@code things://items/{item}} and keeps its context for the test. */
  private static HubExtension things(AtomicReference<ExtensionContext> context) {
    return new HubExtension() {
      @Override
      public String name() {
        return "things";
      }

      @Override
      public void start(ExtensionContext given) {
        given.offerResource(resource("things://all"));
        given.offerResource(resource("things://items/{item}"));
        context.set(given);
      }
    };
  }

  @Test
  void aReportedChangeIsATransientEventNamingTheConcreteUris() throws Exception {
    AtomicReference<ExtensionContext> context = new AtomicReference<>();
    try (Hub hub = Hub.open(HubConfig.forHome(home), List.of(), List.of(things(context)));
        EventStream stream = hub.events().open(hub.events().lastSeqOrZero(), 16)) {
      context.get().resourcesChanged(Actor.client("shop"), "things://items/lamp", "things://all");
      Event event = stream.next(Duration.ofSeconds(10)).orElseThrow();
      assertThat(event.type()).isEqualTo(ExtensionResources.UPDATED);
      assertThat(event.seq()).as("transient").isZero();
      assertThat(event.actor()).isEqualTo(Actor.client("shop"));
      List<String> uris = new ArrayList<>();
      event.data().path("uris").forEach(uri -> uris.add(uri.asText()));
      assertThat(uris).containsExactly("things://items/lamp", "things://all");
      assertThat(hub.events().lastSeqOrZero()).as("nothing stored").isEqualTo(stream.position());
    }
  }

  @Test
  void aChangeToATemplateOrToAResourceNotOfferedIsRefusedNamingIt() throws Exception {
    AtomicReference<ExtensionContext> context = new AtomicReference<>();
    try (Hub hub = Hub.open(HubConfig.forHome(home), List.of(), List.of(things(context)));
        EventStream stream = hub.events().open(hub.events().lastSeqOrZero(), 16)) {
      assertThatThrownBy(() -> context.get().resourcesChanged(Actor.USER, "things://items/{item}"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("things://items/{item} is a template; report the URI that changed");
      assertThatThrownBy(() -> context.get().resourcesChanged(Actor.USER, "things://all", "things://none"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("no offered resource is things://none");
      assertThatThrownBy(() -> context.get().resourcesChanged(Actor.USER, "things://items/lamp/more"))
          .hasMessageContaining("no offered resource is things://items/lamp/more");
      context.get().resourcesChanged(Actor.USER);
      assertThat(stream.next(Duration.ZERO)).as("a refused or empty report publishes nothing, not even its valid URIs").isEmpty();
    }
  }
}
