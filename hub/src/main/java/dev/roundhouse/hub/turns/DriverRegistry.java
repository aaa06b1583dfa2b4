package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.core.RoundhouseException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import dev.roundhouse.hub.spi.AgentDriver;

/** The drivers this hub can run, by id. Immutable once built; thread-safe. */
public final class DriverRegistry {
  private final Map<String, AgentDriver> drivers;

  public DriverRegistry(Collection<? extends AgentDriver> drivers) {
    Map<String, AgentDriver> byId = new LinkedHashMap<>();
    for (AgentDriver driver : drivers) {
      if (byId.putIfAbsent(driver.id(), driver) != null) {
        throw new IllegalArgumentException("two drivers share the id '" + driver.id() + "'");
      }
    }
    this.drivers = Map.copyOf(byId);
    this.order = List.copyOf(byId.keySet());
  }

  private final List<String> order;

  /** The driver with this id, or an error naming the ones there are. */
  public AgentDriver get(String id) {
    AgentDriver driver = drivers.get(id);
    if (driver == null) {
      throw new RoundhouseException.NotFound(
          "no driver '" + id + "'; "
              + (drivers.isEmpty() ? "none is configured" : "known drivers: " + String.join(", ", order)));
    }
    return driver;
  }

  public boolean has(String id) {
    return drivers.containsKey(id);
  }

  /** Every driver, in the order they were given. */
  public List<AgentDriver> list() {
    return order.stream().map(drivers::get).collect(Collectors.toUnmodifiableList());
  }
}
