package dev.roundhouse.mcpserver;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * A request whose body has been read into memory by {@link BodyLimitFilter} (so it is at most the endpoint's
 * limit), offered again to the filters and the servlet behind it, with its {@code Content-Length} set to the
 * bytes it holds. The SDK reads request bodies blocking, so no {@link ReadListener} is supported. Confined to
 * its request's thread; {@link #bytes()} is never copied, so whoever takes it must not change it.
 */
final class BufferedBody extends HttpServletRequestWrapper {
  private final byte[] body;

  BufferedBody(HttpServletRequest request, byte[] body) {
    super(request);
    this.body = body;
  }

  /** {@code request} as {@link BodyLimitFilter} passed it on. */
  static BufferedBody of(HttpServletRequest request) {
    if (request instanceof BufferedBody buffered) {
      return buffered;
    }
    throw new IllegalStateException("the MCP endpoint's filters are out of order: BodyLimitFilter must read a POST's body first");
  }

  /** Stands in for this request with another body of up to the same limit (a rewritten message). */
  BufferedBody replacedBy(byte[] rewritten) {
    return new BufferedBody((HttpServletRequest) getRequest(), rewritten);
  }

  byte[] bytes() {
    return body;
  }

  @Override
  public ServletInputStream getInputStream() {
    ByteArrayInputStream in = new ByteArrayInputStream(body);
    return new ServletInputStream() {
      @Override
      public int read() {
        return in.read();
      }

      @Override
      public int read(byte[] buffer, int offset, int count) {
        return in.read(buffer, offset, count);
      }

      @Override
      public boolean isFinished() {
        return in.available() == 0;
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
    return new BufferedReader(new InputStreamReader(getInputStream(), encoding == null ? StandardCharsets.UTF_8 : Charset.forName(encoding)));
  }

  @Override
  public int getContentLength() {
    return body.length;
  }

  @Override
  public long getContentLengthLong() {
    return body.length;
  }

  @Override
  public String getHeader(String name) {
    return "Content-Length".equalsIgnoreCase(name) ? String.valueOf(body.length) : super.getHeader(name);
  }
}
