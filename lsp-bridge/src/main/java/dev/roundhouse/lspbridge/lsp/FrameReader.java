package dev.roundhouse.lspbridge.lsp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.lspbridge.internal.MessageHead;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.lsp4j.jsonrpc.JsonRpcException;
import org.eclipse.lsp4j.jsonrpc.MessageConsumer;
import org.eclipse.lsp4j.jsonrpc.MessageIssueException;
import org.eclipse.lsp4j.jsonrpc.MessageIssueHandler;
import org.eclipse.lsp4j.jsonrpc.MessageProducer;
import org.eclipse.lsp4j.jsonrpc.json.MessageJsonHandler;
import org.eclipse.lsp4j.jsonrpc.messages.Either;
import org.eclipse.lsp4j.jsonrpc.messages.Message;
import org.eclipse.lsp4j.jsonrpc.messages.MessageIssue;
import org.eclipse.lsp4j.jsonrpc.messages.RequestMessage;
import org.eclipse.lsp4j.jsonrpc.messages.ResponseErrorCode;

/**
 * The bridge's reader of {@code Content-Length} frames, in place of LSP4J's {@code StreamMessageProducer}, which
 * takes a header block without a usable {@code Content-Length} ({@code Foo: bar}, {@code Content-Length: abc},
 * {@code Content-Length: -5}) as no message and reads its body as the next block's headers: the body is glued
 * onto the next {@code Content-Length} line, that block fails too, and nothing is answered ever again. It
 * also reads a body of any announced length into memory.
 *
 * <p>Here:
 *
 * <ul>
 *   <li><b>Resynchronisation.</b> A header block without one valid {@code Content-Length} (a whole number of
 *       bytes, 0 to 2<sup>31</sup>−1), and any line that is not a header ({@code name: value}), start a skip:
 *       lines are dropped until a header block is whole again. A dropped line holding {@code Content-Length:}
 *       (any case) is read from there, so a body left over from a bad block, glued onto the next header, costs
 *       only itself. Each skip is one stderr line naming what was wrong and how many bytes it dropped.
 *   <li><b>A size cap.</b> A body longer than {@code maxMessage} bytes is never held: its first
 *       {@link MessageHead#PREFIX} bytes are read for its {@code id} and {@code method}, a request is answered
 *       with -32600 InvalidRequest, and the rest of the body is read and thrown away. A header line keeps at
 *       most {@link #MAX_HEADER_LINE} bytes.
 * </ul>
 *
 * <p>Bodies within the cap are parsed by the bridge's {@link MessageJsonHandler} and passed on as LSP4J's reader
 * does: an issue found while parsing goes to the {@link MessageIssueHandler} (the remote endpoint answers a
 * request's), any other failure is logged, and reading goes on.
 *
 * <p>Thread-safety: {@link #listen} runs on one thread (LSP4J's reader); {@link #close} may be called from any.
 */
final class FrameReader implements MessageProducer, Closeable {
  /** The largest body read, in bytes: 16 MiB. */
  static final int MAX_MESSAGE = 16 << 20;

  /** The longest header line kept, in bytes; of a longer one only its end is kept. */
  static final int MAX_HEADER_LINE = 8192;

  private static final int KEEP_OF_LONG_LINE = 1024;
  private static final Logger LOG = Logger.getLogger(FrameReader.class.getName());
  private static final Pattern HEADER = Pattern.compile("([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \\t]*(.*?)[ \\t]*");
  private static final Pattern LENGTH = Pattern.compile("\\d{1,10}");
  private static final Pattern CHARSET = Pattern.compile("(?i).*;\\s*charset=\"?([^\";\\s]+)\"?.*");
  private static final String CONTENT_LENGTH = "content-length:";

  private final InputStream in;
  private final MessageJsonHandler jsonHandler;
  private final MessageIssueHandler issueHandler;
  private final Consumer<String> warnings;
  private final int maxMessage;
  private final byte[] line = new byte[MAX_HEADER_LINE];
  private volatile boolean closed;

  /** The line last read: its length in bytes, how many of its last bytes {@link #line} holds, its line end's length. */
  private long lineLength;

  private int kept;
  private int lineEnd;

  /** Bytes read so far; where the skip under way began (-1: none), and why. */
  private long consumed;

  private long skipStart = -1;
  private String skipReason;

  /**
   * @param warnings takes one sentence per skipped or refused input (the bridge prints it on stderr)
   */
  FrameReader(InputStream in, MessageJsonHandler jsonHandler, MessageIssueHandler issueHandler, Consumer<String> warnings, int maxMessage) {
    this.in = new BufferedInputStream(in, 65_536);
    this.jsonHandler = jsonHandler;
    this.issueHandler = issueHandler;
    this.warnings = warnings;
    this.maxMessage = maxMessage;
  }

  /** A header block as read so far. */
  private static final class Headers {
    final List<String> names = new ArrayList<>();
    long length = -1;
    Charset charset = StandardCharsets.UTF_8;
    String problem;

    boolean isEmpty() {
      return names.isEmpty() && problem == null;
    }

    void add(String name, String value) {
      names.add(name);
      switch (name.toLowerCase(Locale.ROOT)) {
        case "content-length" -> {
          if (!LENGTH.matcher(value).matches() || Long.parseLong(value) > Integer.MAX_VALUE) {
            problem = problem != null ? problem : "Content-Length: " + shorten(value) + " is not a length (a whole number of bytes, 0 to 2147483647)";
          } else if (length >= 0 && length != Long.parseLong(value)) {
            problem = problem != null ? problem : "two different Content-Length headers (" + length + " and " + value + ")";
          } else {
            length = Long.parseLong(value);
          }
        }
        case "content-type" -> {
          Matcher charsetName = CHARSET.matcher(value);
          if (charsetName.matches()) {
            try {
              charset = Charset.forName(charsetName.group(1));
            } catch (IllegalArgumentException e) {
              problem = problem != null ? problem : "Content-Type: " + shorten(value) + " names a charset Java does not know";
            }
          }
        }
        default -> {
          // other headers carry nothing the bridge uses
        }
      }
    }

    /** Why this block, ended, is not a message; null when it is one. */
    String fault() {
      if (problem != null) {
        return problem;
      }
      return length < 0 ? "a header block without Content-Length (" + String.join(", ", names) + ")" : null;
    }
  }

  @Override
  public void listen(MessageConsumer callback) {
    try {
      while (!closed) {
        Headers headers = headers();
        if (headers == null) {
          return;
        }
        if (headers.length > maxMessage) {
          refuse(headers.length);
        } else if (!body(headers, callback)) {
          return;
        }
      }
    } catch (IOException e) {
      if (!closed && !JsonRpcException.indicatesStreamClosed(e)) {
        LOG.log(Level.INFO, "reading the LSP input failed: " + e, e);
      }
    }
  }

  /** The next header block that announces a usable body, or null at the end of the input. */
  private Headers headers() throws IOException {
    Headers block = new Headers();
    long blockStart = consumed;
    while (true) {
      long lineStart = consumed;
      if (!readLine()) {
        if (skipStart >= 0 || !block.isEmpty()) {
          warnings.accept("the input ended inside a header block" + (skipStart >= 0 ? " after skipping " + (consumed - skipStart) + " byte(s) that were not a message (" + skipReason + ")" : ""));
        }
        return null;
      }
      String text = new String(line, 0, kept, StandardCharsets.ISO_8859_1);
      if (lineLength == 0) {
        if (block.isEmpty()) {
          blockStart = consumed;
          continue; // a blank line between messages
        }
        String fault = block.fault();
        if (fault == null) {
          resumed(blockStart);
          return block;
        }
        startSkip(fault, blockStart);
        block = new Headers();
        blockStart = consumed;
        continue;
      }
      Matcher header = HEADER.matcher(text);
      if (lineLength == kept && header.matches()) {
        if (block.isEmpty()) {
          blockStart = lineStart;
        }
        block.add(header.group(1), header.group(2));
        continue;
      }
      // not a header: garbage, or the body of a skipped message glued onto the next header line
      startSkip("a line that is not a header: " + shorten(text), block.isEmpty() ? lineStart : blockStart);
      block = new Headers();
      blockStart = consumed;
      int at = text.toLowerCase(Locale.ROOT).lastIndexOf(CONTENT_LENGTH);
      Matcher glued = at < 0 ? null : HEADER.matcher(text.substring(at));
      if (glued != null && glued.matches()) {
        blockStart = consumed - lineEnd - (kept - at);
        block.add(glued.group(1), glued.group(2));
      }
    }
  }

  private void startSkip(String reason, long from) {
    if (skipStart < 0) {
      skipStart = from;
      skipReason = reason;
    }
  }

  private void resumed(long blockStart) {
    if (skipStart >= 0) {
      warnings.accept("skipped " + (blockStart - skipStart) + " byte(s) of input that were not a message (" + skipReason + "); reading on from the next Content-Length header");
      skipStart = -1;
      skipReason = null;
    }
  }

  /**
   * Reads one line into {@link #line}, without its line end: sets {@link #lineLength} (in bytes),
   * {@link #kept} (how many of them are in {@code line}: the line's end, at most {@link #MAX_HEADER_LINE}) and
   * {@link #lineEnd}. False at the end of the input.
   */
  private boolean readLine() throws IOException {
    kept = 0;
    lineLength = 0;
    lineEnd = 0;
    while (true) {
      int b = in.read();
      if (b < 0) {
        return lineLength > 0;
      }
      consumed++;
      if (b == '\n') {
        lineEnd = 1;
        if (kept > 0 && line[kept - 1] == '\r') {
          kept--;
          lineLength--;
          lineEnd = 2;
        }
        return true;
      }
      if (kept == MAX_HEADER_LINE) {
        System.arraycopy(line, MAX_HEADER_LINE - KEEP_OF_LONG_LINE, line, 0, KEEP_OF_LONG_LINE);
        kept = KEEP_OF_LONG_LINE;
      }
      line[kept++] = (byte) b;
      lineLength++;
    }
  }

  /** Reads a body within the cap and passes its message on; false at the end of the input. */
  private boolean body(Headers headers, MessageConsumer callback) throws IOException {
    byte[] body = in.readNBytes((int) headers.length);
    consumed += body.length;
    if (body.length < headers.length) {
      warnings.accept("the input ended " + body.length + " bytes into a message of " + headers.length + " bytes");
      return false;
    }
    try {
      Message message = jsonHandler.parseMessage(new InputStreamReader(new ByteArrayInputStream(body), headers.charset));
      callback.consume(message);
    } catch (MessageIssueException issue) {
      issueHandler.handle(issue.getRpcMessage(), issue.getIssues());
    } catch (RuntimeException e) {
      // as LSP4J's reader: a body that is not a message, or a consumer that failed; the next message is read
      LOG.log(Level.SEVERE, e.getMessage() != null ? e.getMessage() : "An error occurred while processing an incoming message.", e);
    }
    return true;
  }

  /** Refuses a body past the cap: answers it when it is a request, and reads the rest of it away. */
  private void refuse(long length) throws IOException {
    byte[] prefix = in.readNBytes((int) Math.min(MessageHead.PREFIX, length));
    consumed += prefix.length;
    MessageHead head = MessageHead.of(prefix, prefix.length);
    String refusal = "the message is " + length + " bytes long; roundhouse lsp accepts at most " + maxMessage + " bytes (" + (maxMessage >> 20) + " MiB) per message";
    String what = head.method().map(method -> " (" + method + (head.id().isPresent() ? " request " + head.id().get() : "") + ")").orElse("");
    if (head.isRequest()) {
      RequestMessage request = new RequestMessage();
      request.setJsonrpc("2.0");
      request.setRawId(rawId(head.id().get()));
      request.setMethod(head.method().get());
      issueHandler.handle(request, List.of(new MessageIssue(refusal, ResponseErrorCode.InvalidRequest.getValue())));
    }
    warnings.accept("refused a message of " + length + " bytes" + what + ", at most " + maxMessage + " are read" + (head.isRequest() ? "; answered -32600" : "") + "; skipping it");
    long left = length - prefix.length;
    byte[] scratch = new byte[65_536];
    while (left > 0) {
      int read = in.read(scratch, 0, (int) Math.min(scratch.length, left));
      if (read < 0) {
        return;
      }
      left -= read;
      consumed += read;
    }
  }

  private static Either<String, Number> rawId(JsonNode id) {
    if (id.isTextual()) {
      return Either.forLeft(id.asText());
    }
    return Either.forRight(id.canConvertToInt() ? (Number) id.intValue() : id.bigIntegerValue());
  }

  private static String shorten(String text) {
    return text.length() > 60 ? text.substring(0, 60) + "…" : text;
  }

  @Override
  public void close() {
    closed = true;
  }
}
