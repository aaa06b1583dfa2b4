package dev.roundhouse.mcpserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.Json;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.SequenceInputStream;
import java.nio.charset.StandardCharsets;
import java.util.function.Predicate;

/**
 * Renames a {@code tools/call} of a tool that does not exist to the hidden {@link UnknownTools#NAME}, keeping
 * the requested name in its arguments, so the SDK (which looks tools up itself and would answer "Unknown
 * tool: invalid_tool_name") hands it to our handler; everything else (session checks, the JSON or SSE answer)
 * stays the SDK's. Reads at most {@code maxBytes + 1} bytes ahead; a larger body passes through untouched for
 * the SDK to refuse. Must be deployed async-supported. Thread-safe (immutable).
 */
final class ToolCallRouting extends HttpFilter {
  private static final long serialVersionUID = 1L;
  private final transient Predicate<String> known;
  private final int maxBytes;

  /** @param known whether a tool name is one the server has */
  ToolCallRouting(Predicate<String> known, int maxBytes) {
    this.known = known;
    this.maxBytes = maxBytes;
  }

  @Override
  protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (!"POST".equalsIgnoreCase(request.getMethod())) {
      chain.doFilter(request, response);
      return;
    }
    InputStream in = request.getInputStream();
    byte[] head = in.readNBytes(maxBytes + 1);
    if (head.length > maxBytes) {
      chain.doFilter(new Body(request, new SequenceInputStream(new ByteArrayInputStream(head), in), -1), response);
      return;
    }
    byte[] body = rerouted(head);
    chain.doFilter(new Body(request, new ByteArrayInputStream(body), body.length), response);
  }

  private byte[] rerouted(byte[] body) {
    if (!mentionsToolsCall(body)) {
      return body; // not a tools/call (initialize, notifications, reads): nothing to parse
    }
    JsonNode message;
    try {
      message = Json.mapper().readTree(body);
    } catch (IOException | RuntimeException e) {
      return body; // not JSON: the SDK answers the parse error
    }
    boolean changed = false;
    if (message != null && message.isArray()) {
      for (JsonNode each : message) {
        changed |= reroute(each);
      }
    } else if (message != null) {
      changed = reroute(message);
    }
    return changed ? Json.write(message).getBytes(StandardCharsets.UTF_8) : body;
  }

  private static final byte[] TOOLS_CALL = "tools/call".getBytes(StandardCharsets.US_ASCII);

  /**
   * Whether {@code tools/call} occurs in the body's bytes. A cheap filter in front of the parse: a message
   * without it cannot be a call to reroute (a method name written with escapes would be missed, and the SDK
   * then answers "Unknown tool" for it, as it would without this filter).
   */
  static boolean mentionsToolsCall(byte[] body) {
    outer:
    for (int i = 0; i <= body.length - TOOLS_CALL.length; i++) {
      for (int j = 0; j < TOOLS_CALL.length; j++) {
        if (body[i + j] != TOOLS_CALL[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  private boolean reroute(JsonNode message) {
    if (!message.isObject() || !"tools/call".equals(message.path("method").asText()) || !message.path("params").isObject()) {
      return false;
    }
    ObjectNode params = (ObjectNode) message.get("params");
    JsonNode name = params.get("name");
    if (name == null || !name.isTextual() || known.test(name.asText())) {
      return false;
    }
    ObjectNode arguments = Json.mapper().createObjectNode();
    arguments.put(UnknownTools.REQUESTED, name.asText());
    params.put("name", UnknownTools.NAME);
    params.set("arguments", arguments);
    return true;
  }

  /** The request with its body replaced. */
  private static final class Body extends HttpServletRequestWrapper {
    private final InputStream body;
    private final long length;

    Body(HttpServletRequest request, InputStream body, long length) {
      super(request);
      this.body = body;
      this.length = length;
    }

    @Override
    public ServletInputStream getInputStream() {
      return new ServletInputStream() {
        private boolean finished;

        @Override
        public int read() throws IOException {
          int b = body.read();
          finished = b < 0;
          return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int count) throws IOException {
          int n = body.read(buffer, offset, count);
          finished = n < 0;
          return n;
        }

        @Override
        public boolean isFinished() {
          return finished;
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
          throw new IllegalStateException("the MCP endpoint reads request bodies blocking");
        }
      };
    }

    @Override
    public BufferedReader getReader() {
      String encoding = getCharacterEncoding();
      return new BufferedReader(new InputStreamReader(getInputStream(),
          encoding == null ? StandardCharsets.UTF_8 : java.nio.charset.Charset.forName(encoding)));
    }

    @Override
    public int getContentLength() {
      return length < 0 ? super.getContentLength() : (int) length;
    }

    @Override
    public long getContentLengthLong() {
      return length < 0 ? super.getContentLengthLong() : length;
    }

    @Override
    public String getHeader(String name) {
      return length >= 0 && "Content-Length".equalsIgnoreCase(name) ? String.valueOf(length) : super.getHeader(name);
    }
  }
}
