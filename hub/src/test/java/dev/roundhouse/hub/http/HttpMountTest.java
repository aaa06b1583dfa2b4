package dev.roundhouse.hub.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.testing.TestHub;
import io.undertow.server.HttpHandler;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A face mounted on the hub's server under a path prefix, with its own checks. */
class HttpMountTest {

  /** A mount that answers 200 with the path it served and records whether it was closed. */
  private static class RecordingMount implements HttpMount {
    final AtomicBoolean closed = new AtomicBoolean();
    final AtomicBoolean ranOnIoThread = new AtomicBoolean();

    @Override
    public String prefix() {
      return "/face";
    }

    @Override
    public HttpHandler handler() {
      return exchange -> {
        ranOnIoThread.compareAndSet(false, exchange.isInIoThread());
        exchange.getResponseSender().send("{\"face\":\"" + exchange.getRequestPath() + "\"}", StandardCharsets.UTF_8);
      };
    }

    @Override
    public void close() {
      closed.set(true);
    }
  }

  @Test
  void mountServesItsPrefixWithoutTheHubsGuardAndIsClosedWithTheServer() {
    RecordingMount mount = new RecordingMount();
    try (TestHub hub = TestHub.withMounts(config -> config, h -> List.of(mount))) {
      HttpRequest.Builder noToken = HttpRequest.newBuilder(URI.create(hub.server().url() + "/face/x")).GET();
      var reply = hub.http().send(noToken);
      assertThat(reply.status()).isEqualTo(200);
      assertThat(reply.body().path("face").asText()).isEqualTo("/face/x");
      assertThat(mount.ranOnIoThread).as("mounts run on a virtual thread, where they may block").isFalse();

      assertThat(hub.http().send(HttpRequest.newBuilder(URI.create(hub.server().url() + "/faceless")).GET()).status())
          .as("a longer path is not under the prefix, and keeps the hub's guard")
          .isEqualTo(401);
      assertThat(hub.http().get("/api/ops").status()).isEqualTo(200);
    }
    assertThat(mount.closed).isTrue();
  }

  @Test
  void guardedMountGetsTheHubsOriginHostAndTokenChecksFirst() {
    RecordingMount mount = new RecordingMount() {
      @Override
      public boolean guarded() {
        return true;
      }
    };
    try (TestHub hub = TestHub.withMounts(config -> config, h -> List.of(mount))) {
      URI face = URI.create(hub.server().url() + "/face/x");
      var noToken = hub.http().send(HttpRequest.newBuilder(face).GET());
      assertThat(noToken.status()).isEqualTo(401);
      assertThat(noToken.errorMessage()).contains("Authorization: Bearer");
      var foreign = hub.http().send(hub.http().request("/face/x").header("Origin", "https://evil.example").GET());
      assertThat(foreign.status()).isEqualTo(403);
      assertThat(foreign.errorMessage()).contains("https://evil.example");
      var passed = hub.http().send(hub.http().request("/face/x").GET());
      assertThat(passed.status()).isEqualTo(200);
      assertThat(passed.body().path("face").asText()).isEqualTo("/face/x");
    }
  }
}
