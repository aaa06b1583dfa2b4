package dev.roundhouse.hub.core;

import java.io.IOException;
import java.net.InetAddress;

/** This machine's name, as a hub names itself in its lock, its worker row and its database session. Stateless. */
public final class HostName {
  private HostName() {}

  /** The local host's name; {@code localhost} when the system cannot say. */
  public static String local() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return "localhost";
    }
  }
}
