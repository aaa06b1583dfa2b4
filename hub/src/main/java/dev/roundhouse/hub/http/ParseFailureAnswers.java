package dev.roundhouse.hub.http;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.xnio.StreamConnection;
import org.xnio.conduits.AbstractStreamSinkConduit;
import org.xnio.conduits.AbstractStreamSourceConduit;
import org.xnio.conduits.Conduits;
import org.xnio.conduits.StreamSinkConduit;
import org.xnio.conduits.StreamSourceConduit;

/**
 * Turns the answer Undertow gives a request it cannot parse into a JSON error like every other.
 *
 * <p>Why this exists: a request line or header Undertow's parser refuses (a path that is not valid
 * percent-encoding such as {@code /api/ops/%ZZ}, a {@code Content-Length} of {@code -1}, {@code abc} or past
 * 2^63, two {@code Host} headers) never reaches a handler: Undertow writes the fixed bytes
 * {@link #UNDERTOW_BAD_REQUEST} (an empty 400) straight to the connection and closes it, and offers no hook.
 * So each accepted connection's sink is wrapped ({@link #wrap}), and exactly those bytes are replaced by a 400
 * with a JSON body: the hub's {@code {"error":{"status":400,"code":"malformed_request",…}}}, or a JSON-RPC error
 * with a null id when the request was for a mount that speaks JSON-RPC ({@code /mcp}). Which path the request was
 * for is read from the last request line among the connection's most recent bytes ({@link #SEEN} of them, kept by
 * the wrapped source). Any other bytes pass through untouched: no handler of the hub answers an empty 400.
 *
 * <p>A test (HttpWireTest) sends those requests and fails when Undertow's answer changes. Each wrapper is
 * confined to its connection, which one thread at a time writes and one reads.
 */
final class ParseFailureAnswers {
  /** What Undertow 2.3 writes for a request it cannot parse ({@code HttpReadListener.sendBadRequestAndClose}). */
  static final byte[] UNDERTOW_BAD_REQUEST =
      "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
  /** How many of a connection's most recent bytes are kept to find the request line of a refused request. */
  static final int SEEN = 2048;
  /** Longer writes are never one of Undertow's refusals (a status line and three short headers). */
  private static final int MAX_REFUSAL = 256;
  private static final Pattern REQUEST_LINE = Pattern.compile("(?:^|\n)[A-Z]{3,10} (\\S+) HTTP/1\\.[01]\r?\n");
  private static final String MESSAGE =
      "the request is not valid HTTP: a malformed request line or header, a path that is not valid percent-encoding"
          + " (such as %ZZ), or a Content-Length that is not a whole number from 0 to 2^63-1";
  /**
   * The status lines of Undertow's {@code HostHeaderHandler}, which it wraps around every root handler (no option
   * turns it off): a body-less 400 whose reason phrase says what was wrong with the Host header.
   */
  private static final Map<String, String> HOST_REFUSALS = Map.of(
      "No Host Header", "the request has no Host header; HTTP/1.1 requires exactly one",
      "Only One Host Header Allowed", "the request has more than one Host header; exactly one is accepted",
      "Host Header Malformed Port", "the Host header's port is not a number",
      "Host Header Malformed IP-Literal", "the Host header's IP literal is malformed",
      "Host Header Bad Characters", "the Host header has characters a host name cannot have",
      "URI Host Header NO MATCH", "the Host header does not name the host of the request line's absolute URI");
  private static final Pattern HOST_REFUSAL =
      Pattern.compile("HTTP/1\\.[01] 400 ([^\r\n]+)\r\n(?:[A-Za-z-]+: [^\r\n]*\r\n)*\r\n");

  private ParseFailureAnswers() {}

  /**
   * Wraps {@code connection}'s source and sink before Undertow sees it.
   *
   * @param jsonRpc whether a path is served by a mount that answers JSON-RPC errors
   */
  static void wrap(StreamConnection connection, Predicate<String> jsonRpc) {
    Seen seen = new Seen(connection.getSourceChannel().getConduit());
    connection.getSourceChannel().setConduit(seen);
    connection.getSinkChannel().setConduit(new Answers(connection.getSinkChannel().getConduit(), seen, jsonRpc));
  }

  /** The JSON answer that replaces Undertow's empty one, for a request to {@code path} (null when unknown). */
  static byte[] answer(String path, Predicate<String> jsonRpc) {
    return answer(path, jsonRpc, "malformed_request", MESSAGE);
  }

  /**
   * What replaces the answer {@code written} (one buffer's bytes) when it is one of Undertow's body-less refusals,
   * or null when it is not.
   */
  static byte[] replacement(byte[] written, String path, Predicate<String> jsonRpc) {
    if (Arrays.equals(written, UNDERTOW_BAD_REQUEST)) {
      return answer(path, jsonRpc);
    }
    Matcher refusal = HOST_REFUSAL.matcher(new String(written, StandardCharsets.ISO_8859_1));
    if (refusal.matches() && HOST_REFUSALS.containsKey(refusal.group(1)) && !refusal.group().contains("Content-Type")) {
      return answer(path, jsonRpc, "host_refused", HOST_REFUSALS.get(refusal.group(1)));
    }
    return null;
  }

  private static byte[] answer(String path, Predicate<String> jsonRpc, String code, String message) {
    ObjectNode body = Json.mapper().createObjectNode();
    if (path != null && jsonRpc.test(path)) {
      body.put("jsonrpc", "2.0");
      body.putNull("id");
      body.putObject("error").put("code", -32600).put("message", message);
    } else {
      body.putObject("error").put("status", 400).put("code", code).put("message", message);
    }
    byte[] json = (Json.write(body) + "\n").getBytes(StandardCharsets.UTF_8);
    String head = "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nCache-Control: no-store\r\n"
        + "Content-Length: " + json.length + "\r\nConnection: close\r\n\r\n";
    byte[] head8 = head.getBytes(StandardCharsets.US_ASCII);
    byte[] all = Arrays.copyOf(head8, head8.length + json.length);
    System.arraycopy(json, 0, all, head8.length, json.length);
    return all;
  }

  /** The source side: keeps the last {@link #SEEN} bytes read, in a ring. */
  private static final class Seen extends AbstractStreamSourceConduit<StreamSourceConduit> {
    private final byte[] ring = new byte[SEEN];
    private long total;

    Seen(StreamSourceConduit next) {
      super(next);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
      int start = dst.position();
      int read = next.read(dst);
      keep(dst, start, read);
      return read;
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
      int[] starts = new int[length];
      for (int i = 0; i < length; i++) {
        starts[i] = dsts[offset + i].position();
      }
      long read = next.read(dsts, offset, length);
      for (int i = 0; i < length && read > 0; i++) {
        keep(dsts[offset + i], starts[i], dsts[offset + i].position() - starts[i]);
      }
      return read;
    }

    private void keep(ByteBuffer buffer, int start, int count) {
      for (int i = 0; i < count; i++) {
        ring[(int) (total++ % SEEN)] = buffer.get(start + i);
      }
    }

    /** The target of the last request line among the bytes kept, or null. */
    String lastTarget() {
      int size = (int) Math.min(total, SEEN);
      byte[] ordered = new byte[size];
      for (int i = 0; i < size; i++) {
        ordered[i] = ring[(int) ((total - size + i) % SEEN)];
      }
      Matcher line = REQUEST_LINE.matcher(new String(ordered, StandardCharsets.ISO_8859_1));
      String target = null;
      while (line.find()) {
        target = line.group(1);
      }
      if (target == null) {
        return null;
      }
      int query = target.indexOf('?');
      return query < 0 ? target : target.substring(0, query);
    }
  }

  /** The sink side: replaces {@link #UNDERTOW_BAD_REQUEST}, written in one buffer, by the JSON answer. */
  private static final class Answers extends AbstractStreamSinkConduit<StreamSinkConduit> {
    private final Seen seen;
    private final Predicate<String> jsonRpc;
    private ByteBuffer pending;
    private boolean terminateRequested;

    Answers(StreamSinkConduit next, Seen seen, Predicate<String> jsonRpc) {
      super(next);
      this.seen = seen;
      this.jsonRpc = jsonRpc;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
      if (!drained()) {
        return 0;
      }
      byte[] replacement = refusalReplacement(src);
      if (replacement != null) {
        int length = src.remaining();
        src.position(src.limit());
        pending = ByteBuffer.wrap(replacement);
        drained();
        return length;
      }
      return next.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
      if (length == 1) {
        return write(srcs[offset]);
      }
      return drained() ? next.write(srcs, offset, length) : 0;
    }

    @Override
    public int writeFinal(ByteBuffer src) throws IOException {
      return Conduits.writeFinalBasic(this, src);
    }

    @Override
    public long writeFinal(ByteBuffer[] srcs, int offset, int length) throws IOException {
      return Conduits.writeFinalBasic(this, srcs, offset, length);
    }

    @Override
    public void terminateWrites() throws IOException {
      terminateRequested = true;
      if (pending == null) {
        next.terminateWrites();
      }
    }

    @Override
    public boolean flush() throws IOException {
      if (!drained()) {
        return false;
      }
      return next.flush();
    }

    /** Writes what is left of the replacement answer; true once nothing is left. */
    private boolean drained() throws IOException {
      if (pending == null) {
        return true;
      }
      while (pending.hasRemaining()) {
        if (next.write(pending) == 0) {
          return false;
        }
      }
      pending = null;
      if (terminateRequested) {
        next.terminateWrites();
      }
      return true;
    }

    /** The replacement for {@code src} when it is a whole refusal of Undertow's (they are small), else null. */
    private byte[] refusalReplacement(ByteBuffer src) {
      if (src.remaining() > MAX_REFUSAL || src.remaining() < UNDERTOW_BAD_REQUEST.length) {
        return null;
      }
      byte[] written = new byte[src.remaining()];
      src.duplicate().get(written);
      if (written[0] != 'H' || written[9] != '4') {
        return null;
      }
      return replacement(written, seen.lastTarget(), jsonRpc);
    }
  }
}
