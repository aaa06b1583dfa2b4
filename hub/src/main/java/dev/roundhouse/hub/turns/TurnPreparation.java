package dev.roundhouse.hub.turns;

import dev.roundhouse.hub.core.Locks;
import dev.roundhouse.hub.api.AgentToolsApi;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Task;
import dev.roundhouse.hub.spi.TurnContributor;
import dev.roundhouse.hub.spi.TurnPlace;
import dev.roundhouse.hub.spi.TurnPlacer;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What extensions add to a task's turns before they start: the owners' context and tools
 * ({@link TurnContributor}) and where the turn runs ({@link TurnPlacer}).
 *
 * <p>Thread-safe: copy-on-write lists, filled while extensions start; contributors and placers are called
 * on the caller's thread with no lock held.
 */
final class TurnPreparation {
  private final List<TurnContributor> contributors = new CopyOnWriteArrayList<>();
  private final List<TurnPlacer> placers = new CopyOnWriteArrayList<>();

  void add(TurnContributor contributor) {
    contributors.add(Objects.requireNonNull(contributor, "contributor"));
  }

  void add(TurnPlacer placer) {
    placers.add(Objects.requireNonNull(placer, "placer"));
  }

  /** The contributors that own {@code task}, in registration order. */
  List<TurnContributor> owners(Project project, Task task) {
    Locks.assertNoneHeld("the turn contributors");
    return contributors.stream().filter(contributor -> contributor.owns(project, task)).toList();
  }

  /** The agents' tools, plus those of every owner. */
  static Set<String> agentTools(List<TurnContributor> owners) {
    if (owners.isEmpty()) {
      return AgentToolsApi.NAMES;
    }
    Set<String> tools = new TreeSet<>(AgentToolsApi.NAMES);
    owners.forEach(owner -> tools.addAll(owner.agentTools()));
    return Set.copyOf(tools);
  }

  /** Where turns of {@code task} run: the project's folder, then each placer's say in registration order. */
  TurnPlace place(Project project, Task task) {
    TurnPlace place = TurnPlace.of(Path.of(project.path()).toAbsolutePath());
    Locks.assertNoneHeld("the turn placers");
    for (TurnPlacer placer : placers) {
      place = Objects.requireNonNull(placer.place(project, task, place), "a turn placer returned no place");
    }
    return place;
  }

  /**
   * The system prompt the task's owners give its turns (see {@link TurnContributor#systemPrompt}), in their
   * order, or null when none gives one: a coding task.
   */
  static String systemPrompt(Project project, Task task, List<TurnContributor> owners) {
    List<String> prompts = owners.stream()
        .map(owner -> owner.systemPrompt(project, task).filter(text -> !text.isBlank()).map(String::strip))
        .flatMap(Optional::stream)
        .toList();
    return prompts.isEmpty() ? null : String.join("\n\n", prompts);
  }

  /**
   * The project's context (unless {@code projectContext} is false: a runbook that does not send it), the task's
   * title and description, then what the task's owners add, in their order.
   */
  static String contextText(Project project, Task task, List<TurnContributor> owners, boolean projectContext) {
    Locks.assertNoneHeld("the turn contributors' context");
    StringBuilder text = new StringBuilder();
    if (projectContext && project.context() != null) {
      text.append(project.context()).append("\n\n");
    }
    text.append("Task #").append(task.id()).append(": ").append(task.title());
    if (task.description() != null) {
      text.append("\n\n").append(task.description());
    }
    for (TurnContributor owner : owners) {
      String added = owner.turnContext(project, task);
      if (added != null && !added.isBlank()) {
        text.append("\n\n").append(added.strip());
      }
    }
    return text.toString();
  }
}
