package dev.roundhouse.services;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

/**
 * Polls a run's port on loopback (IPv4, then IPv6) through the scheduler until it accepts a connection,
 * then reports the run ready. Stops polling once the run is ready, ended or being stopped (its readiness
 * timeout, set by {@link ManagedService}, bounds the wait). Thread-safe: each poll is a scheduled task.
 */
final class PortReadiness {
  static final Duration INTERVAL = Duration.ofMillis(100);

  private final ServiceRun run;
  private final int port;
  private final Scheduler scheduler;
  private final Runnable ready;

  PortReadiness(ServiceRun run, int port, Scheduler scheduler, Runnable ready) {
    this.run = run;
    this.port = port;
    this.scheduler = scheduler;
    this.ready = ready;
  }

  void poll() {
    if (run.ready || run.stopRequested || run.notReadyInTime || run.ended.isDone()) {
      return;
    }
    if (accepts(InetAddress.getLoopbackAddress()) || accepts(ipv6Loopback())) {
      ready.run();
    } else {
      scheduler.schedule(INTERVAL, this::poll);
    }
  }

  private boolean accepts(InetAddress address) {
    if (address == null) {
      return false;
    }
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(address, port), 250);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static InetAddress ipv6Loopback() {
    try {
      return InetAddress.getByName("::1");
    } catch (IOException e) {
      return null;
    }
  }
}
