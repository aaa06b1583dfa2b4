package dev.roundhouse.hub.testing;

import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.DriverCapabilities;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A driver whose behaviour each test writes as a lambda: a real {@link AgentDriver} for exercising the
 * runner from the hub's own tests (the script driver lives in the drivers module). Records the requests
 * it was given. Thread-safe.
 */
public final class TestDriver implements AgentDriver {
  /** What one turn does. */
  @FunctionalInterface
  public interface Behaviour {
    void run(TurnRequest request, TurnContext context) throws Exception;
  }

  private final String id;
  private final boolean linger;
  private final Behaviour behaviour;
  private final Function<Path, List<Path>> settingsFiles;
  public final List<TurnRequest> requests = new CopyOnWriteArrayList<>();

  public TestDriver(String id, boolean linger, Behaviour behaviour) {
    this(id, linger, behaviour, dir -> List.of());
  }

  public TestDriver(String id, boolean linger, Behaviour behaviour, Function<Path, List<Path>> settingsFiles) {
    this.id = id;
    this.linger = linger;
    this.behaviour = behaviour;
    this.settingsFiles = settingsFiles;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public DriverCapabilities capabilities() {
    return new DriverCapabilities("Test " + id, List.of("test-model"), List.of("default"), true, false, true, linger, Set.of("Read"));
  }

  @Override
  public void run(TurnRequest request, TurnContext context) throws Exception {
    requests.add(request);
    behaviour.run(request, context);
  }

  @Override
  public Optional<String> summarise(String transcript) {
    return Optional.empty();
  }

  @Override
  public List<Path> settingsFiles(Path workingDirectory) {
    return settingsFiles.apply(workingDirectory);
  }
}
