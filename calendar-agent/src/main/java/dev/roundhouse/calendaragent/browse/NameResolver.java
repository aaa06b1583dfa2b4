package dev.roundhouse.calendaragent.browse;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/** Resolves a host name to every address it has. Implementations are thread-safe. */
@FunctionalInterface
public interface NameResolver {
  List<InetAddress> resolve(String host) throws UnknownHostException;

  /** The system resolver (DNS, /etc/hosts). */
  static NameResolver system() {
    return host -> List.of(InetAddress.getAllByName(host));
  }
}
