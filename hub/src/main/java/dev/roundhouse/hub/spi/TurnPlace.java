package dev.roundhouse.hub.spi;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ArrayList;
import java.util.Collections;

/**
 * Where a task's agent works: the folder its turns run in and what is added to the environment of every
 * process started for them (agent CLIs, their commands, terminals). The hub starts from the project's own
 * folder and no additions; capability modules change it through {@link TurnPlacer}s (the workspace module
 * gives each task its own worktree, the services module adds the project's {@code PORT}). Immutable.
 *
 * @param workingDirectory an absolute folder
 * @param environment variables added to (or overriding) a child's environment, in insertion order
 * @param notes sentences for the task's transcript about how the place was chosen ("not a git repository:
 *     the agent works in the project's own folder"), oldest first
 */
public record TurnPlace(Path workingDirectory, Map<String, String> environment, List<String> notes) {

  public TurnPlace {
    if (!workingDirectory.isAbsolute()) {
      throw new IllegalArgumentException("a turn's working directory must be absolute, not " + workingDirectory);
    }
    environment = Collections.unmodifiableMap(new LinkedHashMap<>(environment));
    notes = List.copyOf(notes);
  }

  /** The project's own folder, nothing added: where a turn runs when no module places it. */
  public static TurnPlace of(Path workingDirectory) {
    return new TurnPlace(workingDirectory, Map.of(), List.of());
  }

  /** This place in another folder. */
  public TurnPlace in(Path folder) {
    return new TurnPlace(folder, environment, notes);
  }

  /** This place with {@code name=value} in the environment (replacing an earlier value of {@code name}). */
  public TurnPlace withVariable(String name, String value) {
    Map<String, String> more = new LinkedHashMap<>(environment);
    more.put(name, value);
    return new TurnPlace(workingDirectory, more, notes);
  }

  /** This place with one more note for the transcript. */
  public TurnPlace withNote(String note) {
    List<String> more = new ArrayList<>(notes);
    more.add(note);
    return new TurnPlace(workingDirectory, environment, more);
  }
}
