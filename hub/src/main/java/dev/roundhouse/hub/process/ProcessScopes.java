package dev.roundhouse.hub.process;

/**
 * Opens {@link ProcessScope}s under the hub's {@link Containment}: what a capability module (services, terminals)
 * starts its long-lived processes through, so they get what a turn's children get (a cgroup, a parent-death
 * signal, the run and hub markers, a journaled record) and are reaped by the same boot. The hub hands its own to
 * extensions ({@code ExtensionContext.processes()}). Implementations are thread-safe.
 */
public interface ProcessScopes {
  /**
   * A new scope for {@code owner} (such as {@code service:web}), journaling each group it starts in
   * {@code journal} and erasing it when the scope closes.
   */
  ProcessScope open(String owner, ProcessJournal journal);
}
