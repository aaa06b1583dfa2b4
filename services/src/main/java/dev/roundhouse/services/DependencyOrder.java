package dev.roundhouse.services;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Orders a service's dependencies so each comes after what it needs. Stateless; thread-safe. */
final class DependencyOrder {
  private DependencyOrder() {}

  /**
   * The transitive dependencies of {@code name}, each after its own, ending with {@code name}.
   *
   * @throws ServiceException naming an undefined dependency or a cycle
   */
  static List<String> of(String name, Map<String, ServiceDefinition> definitions) {
    Set<String> done = new LinkedHashSet<>();
    visit(name, definitions, done, new ArrayList<>());
    return List.copyOf(done);
  }

  private static void visit(String name, Map<String, ServiceDefinition> definitions, Set<String> done,
      List<String> path) {
    if (done.contains(name)) {
      return;
    }
    if (path.contains(name)) {
      List<String> cycle = new ArrayList<>(path.subList(path.indexOf(name), path.size()));
      cycle.add(name);
      throw new ServiceException("services depend on each other in a cycle: " + String.join(" -> ", cycle));
    }
    ServiceDefinition definition = definitions.get(name);
    if (definition == null) {
      throw new ServiceException(path.isEmpty()
          ? "no service " + name
          : "service " + path.get(path.size() - 1) + " depends on " + name + ", which is not defined");
    }
    path.add(name);
    for (String dependency : definition.dependsOn()) {
      visit(dependency, definitions, done, path);
    }
    path.remove(path.size() - 1);
    done.add(name);
  }
}
