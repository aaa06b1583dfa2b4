package dev.roundhouse.services;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** Free ports for tests. */
final class Ports {
  private Ports() {}

  /** A port the OS says is free now (from outside the ephemeral range is not guaranteed; good enough). */
  static int free() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
