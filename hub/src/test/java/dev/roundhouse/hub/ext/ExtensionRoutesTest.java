package dev.roundhouse.hub.ext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.HubExtension;
import dev.roundhouse.hub.testing.HttpTestClient.Reply;
import dev.roundhouse.hub.testing.TestHub;
import io.undertow.util.Headers;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A module serves HTTP under /api/x/{name}, behind the hub's token and origin checks. */
class ExtensionRoutesTest {
  static final class Echo implements HubExtension {
    final AtomicReference<ExtensionContext> context = new AtomicReference<>();

    @Override
    public String name() {
      return "echo";
    }

    @Override
    public void start(ExtensionContext context) {
      this.context.set(context);
      context.serve("echo", exchange -> {
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain");
        exchange.getResponseSender().send("{\"path\":\"" + exchange.getRequestPath() + "\",\"virtual\":" + Thread.currentThread().isVirtual() + "}");
      });
      context.serveLinks("link", exchange -> {
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/plain");
        exchange.getResponseSender().send("{\"authorization\":\"" + exchange.getRequestHeaders().getFirst(Headers.AUTHORIZATION) + "\"}");
      });
    }
  }

  private final Echo echo = new Echo();
  private TestHub hub;

  @BeforeEach
  void open() {
    hub = TestHub.withExtensions(config -> config, List.of(), List.of(echo));
  }

  @AfterEach
  void close() {
    hub.close();
  }

  @Test
  void theModulesHandlerAnswersOnAVirtualThreadWithTheToken() {
    Reply reply = hub.http().get("/api/x/echo/logs/web");
    assertThat(reply.status()).isEqualTo(200);
    assertThat(reply.body().get("path").asText()).isEqualTo("/api/x/echo/logs/web");
    assertThat(reply.body().get("virtual").asBoolean()).isTrue();
  }

  @Test
  void noTokenOrAForeignOriginIsRefusedBeforeTheModuleSeesIt() {
    Reply anonymous = hub.http().send(HttpRequest.newBuilder(java.net.URI.create(hub.http().base() + "/api/x/echo")).GET());
    assertThat(anonymous.status()).isEqualTo(401);
    Reply foreign = hub.http().send(hub.http().request("/api/x/echo").header("Origin", "https://evil.example").GET());
    assertThat(foreign.status()).isEqualTo(403);
    assertThat(foreign.errorCode()).isEqualTo("origin_refused");
  }

  @Test
  void aLinkRouteNeedsNoTokenButStillRefusesAForeignOrigin() {
    Reply anonymous = hub.http().send(HttpRequest.newBuilder(java.net.URI.create(hub.http().base() + "/api/x/link/secret/page")).GET());
    assertThat(anonymous.status()).isEqualTo(200);
    assertThat(anonymous.body().get("authorization").asText()).isEqualTo("null");
    Reply foreign = hub.http().send(HttpRequest.newBuilder(java.net.URI.create(hub.http().base() + "/api/x/link/secret"))
        .header("Origin", "https://evil.example").GET());
    assertThat(foreign.status()).isEqualTo(403);
    assertThat(foreign.errorCode()).isEqualTo("origin_refused");
    Reply token = hub.http().send(HttpRequest.newBuilder(java.net.URI.create(hub.http().base() + "/api/x/linked")).GET());
    assertThat(token.status()).as("a name that only starts like a link route").isEqualTo(401);
    assertThatThrownBy(() -> echo.context.get().serveLinks("echo", exchange -> {})).hasMessageContaining("served already");
  }

  @Test
  void anUnknownModuleRouteIsA404NamingIt() {
    Reply reply = hub.http().get("/api/x/nothing/here");
    assertThat(reply.status()).isEqualTo(404);
    assertThat(reply.errorMessage()).contains("/api/x/nothing");
  }

  @Test
  void aSecondModuleCannotTakeTheSameNameAndNamesAreChecked() {
    assertThatThrownBy(() -> echo.context.get().serve("echo", exchange -> {})).hasMessageContaining("served already");
    assertThatThrownBy(() -> echo.context.get().serve("Echo Two", exchange -> {})).hasMessageContaining("'Echo Two'");
  }
}
