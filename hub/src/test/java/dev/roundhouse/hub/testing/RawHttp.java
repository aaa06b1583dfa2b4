package dev.roundhouse.hub.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One HTTP exchange with exactly the bytes a test writes, over a {@link Socket}: for requests that
 * {@code java.net.http} will not send (two {@code Origin} headers, a {@code Content-Length} past 2^63, a
 * malformed path). The answer is read until its {@code Content-Length} is complete, the connection closes, or
 * nothing arrives for 10 s. Stateless; thread-safe.
 */
public final class RawHttp {
  private RawHttp() {}

  /** An answer: the status, the header lines as sent, and the body. */
  public record Answer(int status, List<String> headers, String body) {
    /** The first value of {@code name}, or null. */
    public String header(String name) {
      String prefix = name.toLowerCase(Locale.ROOT) + ":";
      return headers.stream().filter(h -> h.toLowerCase(Locale.ROOT).startsWith(prefix))
          .map(h -> h.substring(prefix.length()).strip()).findFirst().orElse(null);
    }

    /** The body as JSON (fails the test when it is not). */
    public JsonNode json() {
      try {
        return Json.mapper().readTree(body);
      } catch (IOException e) {
        throw new AssertionError("the body is not JSON: '" + body + "' (status " + status + ", " + headers + ")", e);
      }
    }

    @Override
    public String toString() {
      return status + " " + headers + "\n" + body;
    }
  }

  /** Sends {@code request} (its line ends already {@code \r\n}) to 127.0.0.1:{@code port} and reads the answer. */
  public static Answer exchange(int port, String request) {
    return exchange(port, request.getBytes(StandardCharsets.UTF_8));
  }

  public static Answer exchange(int port, byte[] request) {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(request);
      socket.getOutputStream().flush();
      return read(socket.getInputStream());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Answer read(InputStream in) throws IOException {
    ByteArrayOutputStream received = new ByteArrayOutputStream();
    byte[] buffer = new byte[8192];
    int headEnd = -1;
    long length = -1;
    try {
      for (int n; (n = in.read(buffer)) > 0; ) {
        received.write(buffer, 0, n);
        byte[] all = received.toByteArray();
        if (headEnd < 0) {
          headEnd = indexOf(all, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
          if (headEnd >= 0) {
            for (String line : new String(all, 0, headEnd, StandardCharsets.ISO_8859_1).split("\r\n")) {
              if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Long.parseLong(line.substring(15).strip());
              }
            }
          }
        }
        if (headEnd >= 0 && length >= 0 && all.length >= headEnd + 4 + length) {
          break;
        }
      }
    } catch (SocketTimeoutException | java.net.SocketException e) {
      // what arrived is the answer
    }
    byte[] all = received.toByteArray();
    if (headEnd < 0) {
      throw new AssertionError("no HTTP answer, only " + all.length + " bytes: '" + new String(all, StandardCharsets.ISO_8859_1) + "'");
    }
    String[] head = new String(all, 0, headEnd, StandardCharsets.ISO_8859_1).split("\r\n");
    int status = Integer.parseInt(head[0].split(" ")[1]);
    List<String> headers = new ArrayList<>(List.of(head).subList(1, head.length));
    int bodyEnd = length >= 0 ? (int) Math.min(all.length, headEnd + 4 + length) : all.length;
    return new Answer(status, headers, new String(all, headEnd + 4, bodyEnd - headEnd - 4, StandardCharsets.UTF_8));
  }

  private static int indexOf(byte[] data, byte[] needle) {
    outer:
    for (int i = 0; i <= data.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (data[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
