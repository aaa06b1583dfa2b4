package dev.roundhouse.mcpserver;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Arrays;

/**
 * Refuses a POST whose body is larger than the endpoint's limit ({@code ROUNDHOUSE_MAX_BODY_BYTES}) with 413 and
 * a JSON-RPC error naming the limit, before anything behind it sees the request, and holds the body of any other
 * POST in memory for them ({@link BufferedBody}). A declared {@code Content-Length} over the limit is refused
 * without reading the body; a body of unknown length (chunked) is read up to one byte past the limit, never
 * further into memory. After the answer, Undertow reads the rest of a refused body and throws it away, so the
 * client reads its 413 in full and the connection stays usable (closing it instead resets it under a client
 * still sending, and the client loses the answer). Must be deployed async-supported, behind {@link GuardFilter}
 * (an unauthenticated request is refused before its body is read). Thread-safe (immutable).
 */
final class BodyLimitFilter extends PostFilter {
  private static final long serialVersionUID = 1L;
  private final int maxBytes;

  /** @param maxBytes the largest body accepted */
  BodyLimitFilter(int maxBytes) {
    this.maxBytes = maxBytes;
  }

  @Override
  void filterPost(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    long declared = request.getContentLengthLong();
    if (declared > maxBytes) {
      refuse(response, declared + " bytes");
      return;
    }
    // A declared length is read into an array of that size; readNBytes(n) would stage even a small body in 8 KiB
    // chunks and copy it out.
    byte[] body = declared >= 0 ? exactly(request, (int) declared) : request.getInputStream().readNBytes(maxBytes + 1);
    if (body.length > maxBytes) {
      refuse(response, "more than " + maxBytes + " bytes");
      return;
    }
    chain.doFilter(new BufferedBody(request, body), response);
  }

  /** The body of a request that declared {@code length} bytes; fewer when the client ended it early. */
  private static byte[] exactly(HttpServletRequest request, int length) throws IOException {
    byte[] body = new byte[length];
    int read = request.getInputStream().readNBytes(body, 0, length);
    return read == length ? body : Arrays.copyOf(body, read);
  }

  private void refuse(HttpServletResponse response, String size) throws IOException {
    JsonRpcErrors.send(response, 413,
        "the request body is " + size + "; the MCP endpoint accepts at most " + maxBytes + " bytes (ROUNDHOUSE_MAX_BODY_BYTES)");
  }
}
