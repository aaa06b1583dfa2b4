package dev.roundhouse.hub.agenttools;

import dev.roundhouse.hub.core.FailureLog;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.api.AgentToolsApi.Answer;
import dev.roundhouse.hub.ops.Operation.Handler;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.util.function.Supplier;

/**
 * The one guard every agent tool's answer passes: whatever goes wrong comes back as a sentence naming the
 * tool, never a stack trace, a hang or an empty answer.
 *
 * <ul>
 *   <li>a refusal ({@link RoundhouseException}) keeps its kind and code, its sentence prefixed with the tool;
 *   <li>any other exception becomes {@code internal_error} naming a reference to look up in the hub log;
 *   <li>a handler that does not answer within the timeout becomes {@code timeout} (the work may still
 *       complete; the sentence says to check before retrying);
 *   <li>a null answer or one without a summary becomes {@code empty_result}.
 * </ul>
 *
 * <p>Stateless; thread-safe. A timed handler runs on a virtual thread of its own.
 */
final class AnswerGuard {
  private static final Logger log = LoggerFactory.getLogger(AnswerGuard.class);

  private AnswerGuard() {}

  /** {@code handler} behind the guard; {@code timeout} null means no time limit (a question to a human). */
  static <I, O extends Answer> Handler<I, O> guard(String tool, Duration timeout, Handler<I, O> handler) {
    return (actor, input) -> {
      O answer;
      try {
        answer = timeout == null ? handler.apply(actor, input) : within(tool, timeout, () -> handler.apply(actor, input));
      } catch (RoundhouseException e) {
        throw named(tool, e);
      } catch (RuntimeException e) {
        String ref = FailureLog.logged(log, "agent tool " + tool + " failed", e);
        throw new RoundhouseException(
            "internal_error", tool + " failed unexpectedly; the hub log has the details under reference " + ref, e);
      }
      if (answer == null || answer.summary() == null || answer.summary().isBlank()) {
        throw new RoundhouseException("empty_result", tool + " came back with an empty answer; nothing was returned");
      }
      return answer;
    };
  }

  private static <O> O within(String tool, Duration timeout, Supplier<O> call) {
    CompletableFuture<O> result = new CompletableFuture<>();
    Thread.ofVirtual().name("roundhouse-agent-tool-" + tool).start(() -> {
      try {
        result.complete(call.get());
      } catch (Throwable t) {
        result.completeExceptionally(t);
      }
    });
    try {
      return result.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      throw new RoundhouseException(
          "timeout", tool + " did not answer within " + describe(timeout) + "; it may still complete, so check before calling it again");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RoundhouseException("interrupted", tool + " was interrupted before it answered");
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** The same refusal with its sentence prefixed by the tool's name. */
  static RoundhouseException named(String tool, RoundhouseException e) {
    String message = e.getMessage() == null ? e.code() : e.getMessage();
    if (message.startsWith(tool + ":") || message.startsWith(tool + " ")) {
      return e;
    }
    String sentence = tool + ": " + message;
    RoundhouseException renamed = switch (e) {
      case RoundhouseException.NotFound n -> new RoundhouseException.NotFound(e.code(), sentence);
      case RoundhouseException.InvalidInput i -> new RoundhouseException.InvalidInput(e.code(), sentence);
      case RoundhouseException.Conflict c -> new RoundhouseException.Conflict(sentence);
      case RoundhouseException.Forbidden f -> new RoundhouseException.Forbidden(e.code(), sentence);
      default -> new RoundhouseException(e.code(), sentence, e);
    };
    if (renamed.getCause() == null) {
      renamed.initCause(e);
    }
    return renamed;
  }

  private static String describe(Duration duration) {
    return duration.toMillis() < 1000 ? duration.toMillis() + " ms" : duration.toSeconds() + " s";
  }
}
