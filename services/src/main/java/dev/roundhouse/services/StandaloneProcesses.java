package dev.roundhouse.services;

import dev.roundhouse.hub.process.Containment;
import dev.roundhouse.hub.process.ProcessScopes;
import java.nio.file.Path;
import java.time.Clock;

/**
 * The containment an engine uses when no hub hands it one (the engine's own tests, a tool that runs services
 * without a hub): probed once per JVM, as a hub would probe it, for a home of this JVM's own, so its marker is
 * this JVM's and its cgroups sit in a folder of their own, removed at exit. Nothing reaps after a crash here: only a
 * hub does that at its boot. Thread-safe (a holder class initialised once).
 */
final class StandaloneProcesses {
  private StandaloneProcesses() {}

  private static final class Holder {
    static final Containment CONTAINMENT = Containment.detect(
        Path.of(System.getProperty("java.io.tmpdir"), "roundhouse-engine-" + ProcessHandle.current().pid()),
        Clock.systemUTC());

    static {
      // Removes this JVM's cgroup folder at exit (empty by then unless a scope was left open).
      Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().unstarted(CONTAINMENT::close));
    }
  }

  static ProcessScopes scopes() {
    return Holder.CONTAINMENT;
  }
}
