package dev.roundhouse.lspbridge.lsp;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonObject;
import dev.roundhouse.hub.testing.TestHub;
import dev.roundhouse.hubclient.HubAddress;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.eclipse.lsp4j.ClientCapabilities;
import org.eclipse.lsp4j.InitializeParams;
import org.eclipse.lsp4j.InitializeResult;
import org.eclipse.lsp4j.InitializedParams;
import org.eclipse.lsp4j.WindowClientCapabilities;
import org.eclipse.lsp4j.jsonrpc.Launcher;

/**
 * A running bridge attached to a real hub over its HTTP API, connected by pipes to either a real LSP4J client
 * ({@link #client}) or raw bytes ({@link #rawIn}/{@link #rawOut}). Closing it ends the bridge and checks it
 * returned. Not thread-safe; one per test.
 */
final class BridgeFixture implements AutoCloseable {
  static final LspBridge.Settings FAST = new LspBridge.Settings(Duration.ZERO, Duration.ofMillis(100));

  final TestHub hub;
  final OutputStream rawOut; // into the bridge
  final InputStream rawIn; // out of the bridge
  final CompletableFuture<Integer> exit;

  private BridgeFixture(TestHub hub, LspBridge.Settings settings) {
    this(hub, new HubAddress(hub.server().url(), hub.hub().token()), settings);
  }

  private BridgeFixture(TestHub hub, HubAddress address, LspBridge.Settings settings) {
    this.hub = hub;
    try {
      Pipe toBridge = Pipe.open();
      Pipe fromBridge = Pipe.open();
      this.rawOut = Channels.newOutputStream(toBridge.sink());
      this.rawIn = Channels.newInputStream(fromBridge.source());
      InputStream bridgeIn = Channels.newInputStream(toBridge.source());
      OutputStream bridgeOut = Channels.newOutputStream(fromBridge.sink());
      this.exit = new CompletableFuture<>();
      Thread.ofVirtual().name("bridge-under-test").start(() -> {
        try {
          exit.complete(LspBridge.serve(bridgeIn, bridgeOut, () -> address, settings));
        } catch (Throwable t) {
          exit.completeExceptionally(t);
        } finally {
          try {
            bridgeOut.close();
          } catch (IOException e) {
            // closing anyway
          }
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static BridgeFixture start(TestHub hub) {
    return new BridgeFixture(hub, FAST);
  }

  /** A bridge attached to whatever listens at {@code address} (a stand-in for the hub); {@link #hub} is null. */
  static BridgeFixture startAt(HubAddress address) {
    return new BridgeFixture(null, address, FAST);
  }

  /** A connected LSP4J client (not yet initialized). */
  Client client(RecordingClient local) {
    Launcher<BridgeServer> launcher =
        new Launcher.Builder<BridgeServer>()
            .setLocalService(local)
            .setRemoteInterface(BridgeServer.class)
            .setInput(rawIn)
            .setOutput(rawOut)
            .create();
    Future<Void> listening = launcher.startListening();
    return new Client(launcher.getRemoteProxy(), local, listening);
  }

  /** A client connected to the bridge. */
  record Client(BridgeServer server, RecordingClient local, Future<Void> listening) {
    /** Initializes as a client that speaks roundhouse/* (or a plain one) and shows progress. */
    InitializeResult initialize(boolean speaksRoundhouse) throws Exception {
      InitializeParams params = new InitializeParams();
      ClientCapabilities capabilities = new ClientCapabilities();
      if (speaksRoundhouse) {
        JsonObject experimental = new JsonObject();
        experimental.add("roundhouse", new JsonObject());
        capabilities.setExperimental(experimental);
      }
      WindowClientCapabilities window = new WindowClientCapabilities();
      window.setWorkDoneProgress(true);
      capabilities.setWindow(window);
      params.setCapabilities(capabilities);
      InitializeResult result = server.initialize(params).get(10, TimeUnit.SECONDS);
      server.initialized(new InitializedParams());
      return result;
    }
  }

  @Override
  public void close() throws Exception {
    try {
      rawOut.close(); // end of input: the bridge returns
    } catch (IOException e) {
      // already closed
    }
    assertThat(exit.get(10, TimeUnit.SECONDS)).as("bridge exit status").isIn(0, 1);
    rawIn.close();
  }
}
