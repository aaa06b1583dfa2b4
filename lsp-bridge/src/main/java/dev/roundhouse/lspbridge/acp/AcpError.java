package dev.roundhouse.lspbridge.acp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.RoundhouseException;

/**
 * A JSON-RPC error to answer an ACP request with: its numeric code, its sentence (this exception's message)
 * and optional data. Also what a failed agent-to-client request completes with.
 */
final class AcpError extends RoundhouseException {
  private static final long serialVersionUID = 1L;
  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int METHOD_NOT_FOUND = -32601;
  static final int INVALID_PARAMS = -32602;
  static final int INTERNAL_ERROR = -32603;

  private final int rpcCode;
  private final transient JsonNode data;

  AcpError(int rpcCode, String message) {
    this(rpcCode, message, null);
  }

  AcpError(int rpcCode, String message, JsonNode data) {
    super("acp_error", message);
    this.rpcCode = rpcCode;
    this.data = data;
  }

  static AcpError invalidParams(String message) {
    return new AcpError(INVALID_PARAMS, message);
  }

  /** The JSON-RPC error code. */
  int rpcCode() {
    return rpcCode;
  }

  /** The error's data, or null. */
  JsonNode data() {
    return data;
  }
}
