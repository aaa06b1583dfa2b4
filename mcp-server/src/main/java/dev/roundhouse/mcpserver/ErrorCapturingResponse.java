package dev.roundhouse.mcpserver;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * A response that lets success through but holds back an error: once the status is 400 or more (set or
 * sent), the body written is kept here instead of reaching the client, so {@link CleanErrorsFilter} can
 * answer in its place. Confined to the request's thread until the servlet goes asynchronous, which it
 * only does on success.
 */
final class ErrorCapturingResponse extends HttpServletResponseWrapper {
  private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
  private int status = SC_OK;
  private boolean failed;
  private String errorMessage;
  private PrintWriter capturedWriter;

  ErrorCapturingResponse(HttpServletResponse response) {
    super(response);
  }

  boolean failed() {
    return failed;
  }

  @Override
  public int getStatus() {
    return status;
  }

  int status() {
    return status;
  }

  String errorMessage() {
    return errorMessage;
  }

  String capturedBody() {
    if (capturedWriter != null) {
      capturedWriter.flush();
    }
    return captured.toString(StandardCharsets.UTF_8);
  }

  @Override
  public void setStatus(int code) {
    status = code;
    if (code >= 400) {
      failed = true;
    } else {
      super.setStatus(code);
    }
  }

  @Override
  public void sendError(int code, String message) {
    status = code;
    failed = true;
    errorMessage = message;
  }

  @Override
  public void sendError(int code) {
    sendError(code, null);
  }

  @Override
  public PrintWriter getWriter() throws IOException {
    if (!failed) {
      return super.getWriter();
    }
    if (capturedWriter == null) {
      capturedWriter = new PrintWriter(new OutputStreamWriter(captured, StandardCharsets.UTF_8));
    }
    return capturedWriter;
  }

  @Override
  public ServletOutputStream getOutputStream() throws IOException {
    if (!failed) {
      return super.getOutputStream();
    }
    return new ServletOutputStream() {
      @Override
      public boolean isReady() {
        return true;
      }

      @Override
      public void setWriteListener(WriteListener listener) {
        throw new UnsupportedOperationException("error bodies are captured synchronously");
      }

      @Override
      public void write(int b) {
        captured.write(b);
      }
    };
  }
}
