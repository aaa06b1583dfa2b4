package dev.roundhouse.lspbridge.lsp;

import dev.roundhouse.hubclient.HubAddress;
import dev.roundhouse.hubclient.HubUnavailableException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.eclipse.lsp4j.jsonrpc.Endpoint;
import org.eclipse.lsp4j.jsonrpc.Launcher;
import org.eclipse.lsp4j.jsonrpc.MessageConsumer;
import org.eclipse.lsp4j.jsonrpc.MessageProducer;
import org.eclipse.lsp4j.jsonrpc.RemoteEndpoint;
import org.eclipse.lsp4j.jsonrpc.ResponseErrorException;
import org.eclipse.lsp4j.jsonrpc.json.ConcurrentMessageProcessor;
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler;
import org.eclipse.lsp4j.jsonrpc.json.StreamMessageConsumer;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseError;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;
import org.eclipse.lsp4j.jsonrpc.services.ServiceEndpoints;

/**
 * The LSP face: serves one client over a pair of streams (stdin and stdout for {@code roundhouse lsp}) as a
 * codec over the running hub's HTTP API. Unknown methods get -32601, malformed params -32602 naming the
 * field, hub errors the hub's sentence; no message, however bad, ends the bridge. Its own {@link FrameReader}
 * reads the frames: a bad header block is skipped up to the next valid one, and a body past
 * {@link Settings#MAX_MESSAGE} is refused (-32600 for a request) and read away without being held. See
 * {@code docs/lsp-protocol.md}.
 *
 * <p>Thread-safety: {@link #serve} blocks its caller until the client sends {@code exit} or closes the
 * input (and the requests read before have been answered); the bridge's own threads are virtual (LSP4J's reader, hub calls, event followers).
 */
public final class LspBridge {
  private LspBridge() {}

  /**
   * LSP4J's launcher with two changes. It answers an unknown request whose method starts with {@code $/}
   * with a null result; the LSP specification asks for -32601 (the bridge supports no {@code $/} request,
   * only the {@code $/cancelRequest} notification, which LSP4J handles before the endpoint). And it only
   * logs a request whose params do not fit its method; {@link BridgeJsonHandler} answers it.
   */
  private static final class StrictBuilder extends Launcher.Builder<RoundhouseClient> {
    private final OpenRequests open;
    private final int maxMessage;
    private final Consumer<String> warnings;
    private MessageJsonHandler jsonHandler;
    private RemoteEndpoint remoteEndpoint;

    StrictBuilder(OpenRequests open, int maxMessage, Consumer<String> warnings) {
      this.open = open;
      this.maxMessage = maxMessage;
      this.warnings = warnings;
    }

    /**
     * The bridge's {@link FrameReader} reads the input instead of LSP4J's {@code StreamMessageProducer} (which
     * LSP4J creates and this drops unused); incoming requests are noted in {@link OpenRequests} before they
     * are dispatched.
     */
    @Override
    protected ConcurrentMessageProcessor createMessageProcessor(MessageProducer lsp4jReader, MessageConsumer messageConsumer, RoundhouseClient remoteProxy) {
      FrameReader reader = new FrameReader(input, jsonHandler, remoteEndpoint, warnings, maxMessage);
      return super.createMessageProcessor(reader, open.reading(messageConsumer), remoteProxy);
    }

    /** Params that do not fit their method are answered with -32602 rather than only logged. */
    @Override
    protected MessageJsonHandler createJsonHandler() {
      jsonHandler = new BridgeJsonHandler(getSupportedMethods());
      return jsonHandler;
    }

    @Override
    protected RemoteEndpoint createRemoteEndpoint(MessageJsonHandler jsonHandler) {
      MessageConsumer outgoing = open.writing(wrapMessageConsumer(new StreamMessageConsumer(output, jsonHandler)));
      Endpoint local = ServiceEndpoints.toEndpoint(localServices);
      Endpoint strict =
          new Endpoint() {
            @Override
            public CompletableFuture<?> request(String method, Object parameter) {
              if (method.startsWith("$/")) {
                return CompletableFuture.failedFuture(
                    new ResponseErrorException(new ResponseError(ResponseErrorCode.MethodNotFound, "Unsupported request method: " + method, null)));
              }
              CompletableFuture<?> answer;
              try {
                answer = local.request(method, parameter);
              } catch (RuntimeException e) { // LSP4J rethrows what a default method threw
                return notServed(method, e);
              }
              // The very future, not a dependent one: $/cancelRequest cancels it, and that aborts the hub call.
              return answer.isCompletedExceptionally() ? answer.exceptionallyCompose(failure -> notServed(method, failure)) : answer;
            }

            @Override
            public void notify(String method, Object parameter) {
              local.notify(method, parameter);
            }
          };
      RemoteEndpoint endpoint = new RemoteEndpoint(outgoing, strict);
      jsonHandler.setMethodProvider(endpoint);
      endpoint.setJsonHandler(jsonHandler);
      remoteEndpoint = endpoint;
      return endpoint;
    }
  }

  /**
   * A standard request LSP4J routes to a default method the bridge does not override (hover, completion,
   * symbols, executeCommand: the bridge serves no documents) fails with {@link UnsupportedOperationException};
   * LSP4J would answer -32603 with the stack trace. It is -32601 naming the method; any other failure passes.
   */
  private static <T> CompletableFuture<T> notServed(String method, Throwable failure) {
    Throwable cause = failure;
    while ((cause instanceof java.util.concurrent.CompletionException || cause instanceof java.lang.reflect.InvocationTargetException
        || cause.getClass() == RuntimeException.class) && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof UnsupportedOperationException) {
      return CompletableFuture.failedFuture(new ResponseErrorException(new ResponseError(ResponseErrorCode.MethodNotFound,
          "roundhouse lsp does not serve " + method + ": it is a bridge to the Roundhouse hub (the roundhouse/* methods), not a language server for documents",
          null)));
    }
    return CompletableFuture.failedFuture(failure);
  }

  /**
   * How the bridge behaves. Immutable.
   *
   * @param progressDelay a {@code roundhouse/call} running longer than this reports {@code $/progress}
   * @param retryDelay the wait between attempts to reconnect to the hub's event stream
   * @param maxMessage the largest message body read, in bytes; a longer one is refused and skipped
   */
  public record Settings(Duration progressDelay, Duration retryDelay, int maxMessage) {
    /** The largest message body {@code roundhouse lsp} reads: 16 MiB. */
    public static final int MAX_MESSAGE = FrameReader.MAX_MESSAGE;

    public static final Settings DEFAULTS = new Settings(Duration.ofSeconds(1), Duration.ofSeconds(1));

    public Settings {
      Objects.requireNonNull(progressDelay, "progressDelay");
      Objects.requireNonNull(retryDelay, "retryDelay");
      if (maxMessage < 1) {
        throw new IllegalArgumentException("maxMessage must be at least 1 byte, not " + maxMessage);
      }
    }

    /** Settings with the default message cap, {@link #MAX_MESSAGE}. */
    public Settings(Duration progressDelay, Duration retryDelay) {
      this(progressDelay, retryDelay, MAX_MESSAGE);
    }
  }

  /**
   * At the end of the input, waits (at most {@link RoundhouseLanguageServer#SHUTDOWN_GRACE}) until every
   * request read has been answered: a client that pipes requests and closes its end gets every answer.
   */
  private static void answerWhatWasRead(OpenRequests open, Consumer<String> warnings) {
    boolean allAnswered;
    try {
      allAnswered = open.awaitNone(RoundhouseLanguageServer.SHUTDOWN_GRACE);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    if (!allAnswered) {
      warnings.accept(open.size() + " request(s) still unanswered " + RoundhouseLanguageServer.SHUTDOWN_GRACE.toSeconds() + " s after the end of the input; exiting without their answers");
    }
  }

  /**
   * Serves one client until it sends {@code exit} or closes {@code in}; at the end of {@code in} the
   * requests already read are answered first.
   *
   * @param locator finds the hub (again after it restarts); throws {@link HubUnavailableException} when none
   *     runs
   * @return the process exit status the LSP specification asks for: 0 when {@code shutdown} came before
   *     the end, 1 otherwise
   */
  public static int serve(InputStream in, OutputStream out, Supplier<HubAddress> locator, Settings settings) {
    return serve(in, out, locator, settings, warning -> System.err.println("roundhouse lsp: " + warning));
  }

  /**
   * As {@link #serve(InputStream, OutputStream, Supplier, Settings)}, with each sentence about skipped or
   * unanswered input going to {@code warnings} (the WebSocket sessions log them) rather than stderr.
   */
  static int serve(InputStream in, OutputStream out, Supplier<HubAddress> locator, Settings settings, Consumer<String> warnings) {
    ExecutorService executor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("roundhouse-lsp-", 0).factory());
    OpenRequests open = new OpenRequests();
    AtomicReference<Future<Void>> listening = new AtomicReference<>();
    RoundhouseLanguageServer server =
        new RoundhouseLanguageServer(
            locator,
            settings,
            executor,
            () -> {
              Future<Void> reader = listening.get();
              if (reader != null) {
                reader.cancel(true);
              }
            });
    try {
      Launcher<RoundhouseClient> launcher =
          new StrictBuilder(open, settings.maxMessage(), warnings)
              .setLocalService(server)
              .setRemoteInterface(RoundhouseClient.class)
              .setInput(in)
              .setOutput(out)
              .setExecutorService(executor)
              .create();
      server.connect(launcher.getRemoteProxy());
      listening.set(launcher.startListening());
      boolean inputEnded = false;
      try {
        listening.get().get();
        inputEnded = true;
      } catch (CancellationException exitRequested) {
        // exit: done
      } catch (ExecutionException e) {
        inputEnded = true; // the input failed: the client stopped writing, perhaps still reads
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (inputEnded) {
        answerWhatWasRead(open, warnings);
      }
      return server.shutdownRequested() ? 0 : 1;
    } finally {
      server.close();
      executor.shutdownNow();
    }
  }
}
