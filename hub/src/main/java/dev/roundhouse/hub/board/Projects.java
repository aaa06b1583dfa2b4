package dev.roundhouse.hub.board;

import dev.roundhouse.hub.api.BoardApi.ProjectCreate;
import dev.roundhouse.hub.api.BoardApi.ProjectUpdate;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException.Conflict;
import dev.roundhouse.hub.core.RoundhouseException.InvalidInput;
import dev.roundhouse.hub.core.RoundhouseException.NotFound;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.store.Store;
import dev.roundhouse.hub.store.StoreReader;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The board's projects: creating and updating one (a unique name, an existing absolute folder) and finding one
 * by id or name. {@link Board} is its only user. Thread-safe: holds no state beyond the store.
 */
final class Projects {
  private final Store store;

  Projects(Store store) {
    this.store = store;
  }

  Project create(Actor actor, ProjectCreate input) {
    String name = Names.projectName(input.name());
    String path = existingFolder(input.path());
    return store.write(
        w -> {
          ensureNameFree(w, name, null);
          Instant now = w.now();
          Project project =
              w.insertProject(
                  new Project(
                      0, name, path, Names.emptyToNull(Names.optionalText("default_agent", input.defaultAgent())),
                      Names.emptyToNull(Names.optionalText("context", input.context())), now, now));
          w.append(new BoardEvent.ProjectCreated(project).draft(actor, project.id(), null));
          return project;
        });
  }

  Project update(Actor actor, ProjectUpdate input) {
    String name = input.name() == null ? null : Names.projectName(input.name());
    String path = input.path() == null ? null : existingFolder(input.path());
    return store.write(
        w -> {
          Project before = find(w, input.project());
          if (name != null) {
            ensureNameFree(w, name, before.id());
          }
          Project after =
              new Project(
                  before.id(),
                  name != null ? name : before.name(),
                  path != null ? path : before.path(),
                  Names.patch(before.defaultAgent(), Names.optionalText("default_agent", input.defaultAgent())),
                  Names.patch(before.context(), Names.optionalText("context", input.context())),
                  before.createdAt(),
                  w.now());
          w.updateProject(after);
          w.append(new BoardEvent.ProjectUpdated(after, before).draft(actor, after.id(), null));
          return after;
        });
  }

  /**
   * The project {@code ref} names (an id, or a name case-insensitively) as {@code r} sees it.
   *
   * @throws NotFound naming the known projects
   */
  static Project find(StoreReader r, String ref) {
    String text = ref == null ? "" : ref.strip();
    if (text.isEmpty()) {
      throw new InvalidInput("project must name a project by id or name");
    }
    if (text.chars().allMatch(Character::isDigit) && text.length() < 19) {
      return r.project(Long.parseLong(text)).orElseThrow(() -> unknownProject(r, text));
    }
    return r.projectByName(text).orElseThrow(() -> unknownProject(r, text));
  }

  private static NotFound unknownProject(StoreReader r, String ref) {
    List<Project> all = r.projects();
    String known =
        all.isEmpty()
            ? "there are no projects yet (create one with project_create)"
            : "known projects: "
                + all.stream().map(p -> p.name() + " (" + p.id() + ")").collect(Collectors.joining(", "));
    return new NotFound("no project '" + ref + "'; " + known);
  }

  private static void ensureNameFree(StoreReader r, String name, Long self) {
    r.projectByName(name)
        .filter(p -> self == null || p.id() != self)
        .ifPresent(p -> {
          throw new Conflict("a project named '" + p.name() + "' already exists (id " + p.id() + ")");
        });
  }

  private static String existingFolder(String raw) {
    String text = Names.required("path", raw);
    Path path;
    try {
      path = Path.of(text);
    } catch (InvalidPathException e) {
      throw new InvalidInput("path '" + text + "' is not a valid path: " + e.getReason());
    }
    if (!path.isAbsolute()) {
      throw new InvalidInput("path '" + text + "' must be absolute");
    }
    if (!Files.isDirectory(path)) {
      throw new InvalidInput("path '" + text + "' is not an existing folder");
    }
    return path.normalize().toString();
  }
}
