package dev.roundhouse.mcpserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * The writer a POST's SSE answer goes through ({@link CoalescingFilter}), fed the way the SDK 2.2.0 writes an
 * event ({@code id:}, {@code event:}, {@code data:} lines, then flush and checkError): events that are not the
 * answer are flushed at once; the answer is left for the response's completion to write.
 */
class CoalescingFilterTest {
  /** Counts the flushes that reach it. */
  private static final class Target extends StringWriter {
    int flushes;

    @Override
    public void flush() {
      flushes++;
    }
  }

  private static void event(CoalescingFilter.AnswerWriter writer, String json) {
    writer.write("id: s_e\n");
    writer.write("event: message\n");
    writer.write("data: " + json + "\n\n");
    writer.flush();
    assertThat(writer.checkError()).isFalse();
  }

  @Test
  void progressIsFlushedAtOnceAndTheAnswerWaitsForCompletion() {
    Target target = new Target();
    CoalescingFilter.AnswerWriter writer = new CoalescingFilter.AnswerWriter(target);

    event(writer, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":1,\"progress\":1}}");
    int afterProgress = target.flushes;
    assertThat(afterProgress).as("a progress notification reaches the client at once").isPositive();
    assertThat(target.toString()).contains("notifications/progress");

    event(writer, "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\":[]}}");
    assertThat(target.flushes).as("the answer is not flushed on its own").isEqualTo(afterProgress);
    assertThat(target.toString()).as("but it is written, for the completion to send").contains("\"id\":7");
  }

  @Test
  void aRequestToTheClientIsFlushed() {
    Target target = new Target();
    CoalescingFilter.AnswerWriter writer = new CoalescingFilter.AnswerWriter(target);
    event(writer, "{\"jsonrpc\":\"2.0\",\"method\":\"elicitation/create\",\"id\":\"e-1\",\"params\":{}}");
    assertThat(target.flushes).isPositive();
  }
}
