package dev.roundhouse.calendaragent.browse;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Map;

/**
 * Opens the TCP connection to an address the {@link SsrfGuard} vetted: the vetted address is the one dialled,
 * never a name resolved again. Implementations are thread-safe.
 */
@FunctionalInterface
public interface Connector {
  Socket connect(InetAddress vetted, int port, Duration timeout) throws IOException;

  /** Dials the vetted address itself. */
  static Connector direct() {
    return (vetted, port, timeout) -> {
      Socket socket = new Socket();
      try {
        socket.connect(new InetSocketAddress(vetted, port), (int) timeout.toMillis());
        return socket;
      } catch (IOException e) {
        socket.close();
        throw e;
      }
    };
  }

  /**
   * TEST HOOK: dials {@code routes}' local address instead of a vetted public one (and refuses any other), so a
   * test can serve a public-looking name from a server on 127.0.0.1 after the guard has vetted the public
   * address. Never use outside tests.
   */
  static Connector routedForTests(Map<InetSocketAddress, InetSocketAddress> routes) {
    Map<InetSocketAddress, InetSocketAddress> copy = Map.copyOf(routes);
    return (vetted, port, timeout) -> {
      InetSocketAddress local = copy.get(new InetSocketAddress(vetted, port));
      if (local == null) {
        throw new IOException("test connector: no route for " + vetted.getHostAddress() + ":" + port + " (nothing leaves this machine)");
      }
      Socket socket = new Socket();
      socket.connect(local, (int) timeout.toMillis());
      return socket;
    };
  }
}
