package dev.roundhouse.mcpserver;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.PrintWriter;

/**
 * Fewer socket writes for a POST's SSE answer. The SDK flushes the SSE headers at once, flushes each event, and
 * then completes the response (the last chunk), three writes for a quick call. Here a POST's headers wait for
 * its first event, and an event that is the call's JSON-RPC answer is not flushed on its own: the SDK completes
 * the response right after it, which writes it with the last chunk. Events that are not an answer (progress,
 * log messages, a request to the client) are flushed as the SDK asks. GET streams are left alone (a client waits
 * for their headers). Must be deployed async-supported. Thread-safe (stateless; each wrapper is confined to its
 * request, whose writes the SDK serializes).
 */
final class CoalescingFilter extends HttpFilter {
  private static final long serialVersionUID = 1L;
  /** How the SDK writes an event whose data is a JSON-RPC response (its record's field order: jsonrpc, id, …). */
  private static final String ANSWER = "data: {\"jsonrpc\":\"2.0\",\"id\":";

  @Override
  protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    chain.doFilter(request, "POST".equalsIgnoreCase(request.getMethod()) ? new Coalesced(response) : response);
  }

  private static final class Coalesced extends HttpServletResponseWrapper {
    private AnswerWriter writer;

    Coalesced(HttpServletResponse response) {
      super(response);
    }

    @Override
    public void flushBuffer() throws IOException {
      if (writer != null && writer.wrote) {
        super.flushBuffer(); // before anything is written, the headers wait for the first event
      }
    }

    @Override
    public PrintWriter getWriter() throws IOException {
      if (writer == null) {
        writer = new AnswerWriter(super.getWriter());
      }
      return writer;
    }
  }

  /** Skips the flush (and the flush in {@code checkError}) after an answer; the response's completion writes it. */
  static final class AnswerWriter extends PrintWriter {
    private boolean wrote;
    private boolean answered;

    AnswerWriter(java.io.Writer target) {
      super(target);
    }

    @Override
    public void write(String text) {
      wrote = true;
      if (text.startsWith(ANSWER)) {
        answered = true;
      }
      super.write(text);
    }

    @Override
    public void flush() {
      if (!answered) {
        super.flush();
      }
    }

    @Override
    public boolean checkError() {
      return !answered && super.checkError(); // a client gone by then shows when the response completes
    }
  }
}
