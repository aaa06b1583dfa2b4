package dev.roundhouse.calendaragent.browse;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import java.io.BufferedInputStream;
import java.util.Arrays;

/**
 * A minimal HTTP/1.1 GET over a socket to an address the guard vetted ({@code java.net.http} cannot be pinned to
 * an address: it resolves names itself and forbids a Host header). TLS is layered on the vetted socket with the
 * URL's host for SNI and certificate checks. One request per connection ({@code Connection: close}); headers
 * capped at 64 KB, the body at {@code maxBytes}; every read has a timeout and the whole exchange a deadline.
 * Stateless; thread-safe.
 */
final class HttpFetch {
  private static final int MAX_HEADER_BYTES = 64 * 1024;

  private HttpFetch() {}

  record Response(int status, Map<String, String> headers, byte[] body, boolean truncated, InetAddress dialled) {
    String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }
  }

  static Response get(SsrfGuard.Target target, Connector connector, Clock clock, Duration timeout, int maxBytes) throws IOException {
    Instant deadline = clock.instant().plus(timeout);
    IOException last = null;
    for (InetAddress address : target.addresses()) {
      Socket socket;
      try {
        socket = connector.connect(address, target.port(), timeout);
      } catch (IOException e) {
        last = e;
        continue;
      }
      try (Socket open = target.https() ? tls(socket, target) : socket) {
        open.setSoTimeout((int) Math.max(1, timeout.toMillis()));
        return exchange(open, target, clock, deadline, maxBytes, address);
      }
    }
    throw last != null ? last : new IOException("no address to connect to");
  }

  private static Socket tls(Socket socket, SsrfGuard.Target target) throws IOException {
    SSLSocket tls = (SSLSocket) ((SSLSocketFactory) SSLSocketFactory.getDefault()).createSocket(socket, target.host(), target.port(), true);
    SSLParameters parameters = tls.getSSLParameters();
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    if (!target.host().startsWith("[") && SsrfGuard.numericIpv4(target.host()).isEmpty()) {
      parameters.setServerNames(List.of(new SNIHostName(target.host())));
    }
    tls.setSSLParameters(parameters);
    tls.startHandshake();
    return tls;
  }

  private static Response exchange(Socket socket, SsrfGuard.Target target, Clock clock, Instant deadline, int maxBytes, InetAddress dialled)
      throws IOException {
    boolean defaultPort = target.port() == (target.https() ? 443 : 80);
    String host = target.host().contains(":") && !target.host().startsWith("[") ? "[" + target.host() + "]" : target.host();
    String request = "GET " + target.pathAndQuery() + " HTTP/1.1\r\n"
        + "Host: " + host + (defaultPort ? "" : ":" + target.port()) + "\r\n"
        + "User-Agent: Roundhouse-calendar-browse/1\r\n"
        + "Accept: text/html, text/calendar, text/plain;q=0.9, */*;q=0.1\r\n"
        + "Accept-Encoding: identity\r\n"
        + "Connection: close\r\n\r\n";
    OutputStream out = socket.getOutputStream();
    out.write(request.getBytes(StandardCharsets.ISO_8859_1));
    out.flush();
    InputStream in = new DeadlineStream(new BufferedInputStream(socket.getInputStream()), clock, deadline);
    String statusLine = line(in);
    String[] status = statusLine.split(" ", 3);
    if (status.length < 2 || !status[0].startsWith("HTTP/1.")) {
      throw new IOException("not an HTTP/1.x response: " + statusLine);
    }
    int code;
    try {
      code = Integer.parseInt(status[1]);
    } catch (NumberFormatException e) {
      throw new IOException("bad status line: " + statusLine);
    }
    Map<String, String> headers = new LinkedHashMap<>();
    int headerBytes = 0;
    for (String header = line(in); !header.isEmpty(); header = line(in)) {
      headerBytes += header.length();
      if (headerBytes > MAX_HEADER_BYTES) {
        throw new IOException("response headers exceed " + MAX_HEADER_BYTES + " bytes");
      }
      int colon = header.indexOf(':');
      if (colon > 0) {
        headers.merge(header.substring(0, colon).strip().toLowerCase(Locale.ROOT), header.substring(colon + 1).strip(), (a, b) -> a + ", " + b);
      }
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    boolean truncated;
    String encoding = headers.getOrDefault("transfer-encoding", "").toLowerCase(Locale.ROOT);
    if (encoding.contains("chunked")) {
      truncated = chunked(in, body, maxBytes);
    } else {
      long length = headers.containsKey("content-length") ? parseLength(headers.get("content-length")) : Long.MAX_VALUE;
      truncated = copy(in, body, Math.min(length, (long) maxBytes + 1), maxBytes);
    }
    return new Response(code, headers, body.toByteArray(), truncated, dialled);
  }

  private static long parseLength(String value) throws IOException {
    try {
      return Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      throw new IOException("bad Content-Length " + value);
    }
  }

  /** Copies up to {@code limit} bytes; true when more than {@code maxBytes} were on offer (the rest is dropped). */
  private static boolean copy(InputStream in, ByteArrayOutputStream body, long limit, int maxBytes) throws IOException {
    byte[] buffer = new byte[8192];
    long remaining = limit;
    while (remaining > 0) {
      int n = in.read(buffer, 0, (int) Math.min(buffer.length, remaining));
      if (n < 0) {
        break;
      }
      body.write(buffer, 0, n);
      remaining -= n;
      if (body.size() > maxBytes) {
        byte[] kept = Arrays.copyOf(body.toByteArray(), maxBytes);
        body.reset();
        body.write(kept);
        return true;
      }
    }
    return false;
  }

  private static boolean chunked(InputStream in, ByteArrayOutputStream body, int maxBytes) throws IOException {
    while (true) {
      String sizeLine = line(in);
      int semicolon = sizeLine.indexOf(';');
      long size;
      try {
        size = Long.parseLong((semicolon >= 0 ? sizeLine.substring(0, semicolon) : sizeLine).strip(), 16);
      } catch (NumberFormatException e) {
        throw new IOException("bad chunk size " + sizeLine);
      }
      if (size == 0) {
        return false;
      }
      if (copy(in, body, Math.min(size, (long) maxBytes - body.size() + 1), maxBytes)) {
        return true;
      }
      line(in); // the CRLF after the chunk
    }
  }

  private static String line(InputStream in) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) {
        if (line.size() == 0) {
          throw new IOException("the server closed the connection");
        }
        break;
      }
      if (line.size() > 8192) {
        throw new IOException("a response line exceeds 8192 bytes");
      }
      line.write(c);
    }
    String text = line.toString(StandardCharsets.ISO_8859_1);
    return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
  }

  /** Fails a read once the exchange's deadline has passed, however slowly the server trickles bytes. */
  private static final class DeadlineStream extends InputStream {
    private final InputStream in;
    private final Clock clock;
    private final Instant deadline;

    DeadlineStream(InputStream in, Clock clock, Instant deadline) {
      this.in = in;
      this.clock = clock;
      this.deadline = deadline;
    }

    private void check() throws SocketTimeoutException {
      if (clock.instant().isAfter(deadline)) {
        throw new SocketTimeoutException("the fetch took longer than its time limit");
      }
    }

    @Override
    public int read() throws IOException {
      check();
      return in.read();
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
      check();
      return in.read(buffer, offset, length);
    }
  }
}
