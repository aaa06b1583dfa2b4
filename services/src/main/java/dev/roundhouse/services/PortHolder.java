package dev.roundhouse.services;

import java.util.List;

/**
 * The process listening on a port, as /proc tells it.
 *
 * @param port the TCP port
 * @param pid the holding process
 * @param command its command line (argv), empty when unreadable
 */
public record PortHolder(int port, long pid, List<String> command) {
  public PortHolder {
    command = List.copyOf(command);
  }

  /** "pid 812 (python3 -m http.server 21040)". */
  public String describe() {
    return command.isEmpty() ? "pid " + pid : "pid " + pid + " (" + String.join(" ", command) + ")";
  }
}
