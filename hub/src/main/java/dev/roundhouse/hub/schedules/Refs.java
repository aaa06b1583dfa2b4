package dev.roundhouse.hub.schedules;

import dev.roundhouse.hub.board.Board;
import dev.roundhouse.hub.core.RoundhouseException.InvalidInput;
import dev.roundhouse.hub.core.RoundhouseException.NotFound;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Runbook;
import dev.roundhouse.hub.model.Schedule;
import dev.roundhouse.hub.store.StoreReader;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/** Finds runbooks and schedules by id or by name, and checks their names. Stateless. */
final class Refs {
  static final int MAX_NAME = 100;

  private Refs() {}

  static Runbook runbook(StoreReader r, String ref, String project) {
    return find(r, "runbook", ref, project,
        id -> r.schedules().runbook(id), (p, name) -> r.schedules().runbookNamed(p, name),
        p -> r.schedules().runbooks(p).stream().map(Runbook::name).toList(), Runbook::projectId);
  }

  static Schedule schedule(StoreReader r, String ref, String project) {
    return find(r, "schedule", ref, project,
        id -> r.schedules().schedule(id), (p, name) -> r.schedules().scheduleNamed(p, name),
        p -> r.schedules().schedules(p).stream().map(Schedule::name).toList(), Schedule::projectId);
  }

  private interface ByName<T> {
    Optional<T> find(long project, String name);
  }

  private static <T> T find(
      StoreReader r, String kind, String ref, String projectRef, Function<Long, Optional<T>> byId, ByName<T> byName,
      Function<Long, List<String>> names, Function<T, Long> projectOf) {
    String text = ref == null ? "" : ref.strip();
    if (text.isEmpty()) {
      throw new InvalidInput(kind + " must name a " + kind + " by id or name");
    }
    Project project = projectRef == null || projectRef.isBlank() ? null : Board.project(r, projectRef);
    if (text.chars().allMatch(Character::isDigit) && text.length() < 19) {
      T found = byId.apply(Long.parseLong(text))
          .orElseThrow(() -> new NotFound("no " + kind + " " + text + known(kind, names.apply(project == null ? null : project.id()))));
      if (project != null && projectOf.apply(found) != project.id()) {
        throw new NotFound(kind + " " + text + " is not in project " + project.name());
      }
      return found;
    }
    if (project != null) {
      return byName.find(project.id(), text)
          .orElseThrow(() -> new NotFound("no " + kind + " '" + text + "' in project " + project.name() + known(kind, names.apply(project.id()))));
    }
    List<T> matches = r.projects().stream().map(p -> byName.find(p.id(), text)).flatMap(Optional::stream).toList();
    if (matches.size() > 1) {
      String where = matches.stream().map(m -> r.project(projectOf.apply(m)).map(Project::name).orElse("?"))
          .collect(Collectors.joining(", "));
      throw new InvalidInput("several projects have a " + kind + " named '" + text + "' (" + where + "): give the project");
    }
    return matches.stream().findFirst()
        .orElseThrow(() -> new NotFound("no " + kind + " named '" + text + "'" + known(kind, names.apply(null))));
  }

  private static String known(String kind, List<String> names) {
    return names.isEmpty() ? "; there are none yet" : "; known " + kind + "s: " + String.join(", ", names.stream().limit(20).toList());
  }

  /** A runbook's or schedule's name: 1-100 characters, not all digits (it would read as an id). */
  static String name(String kind, String raw) {
    String name = raw == null ? "" : raw.strip();
    if (name.isEmpty()) {
      throw new InvalidInput(kind + " name must not be empty");
    }
    if (name.length() > MAX_NAME) {
      throw new InvalidInput(kind + " name is " + name.length() + " characters; at most " + MAX_NAME);
    }
    if (name.chars().allMatch(Character::isDigit)) {
      throw new InvalidInput(kind + " name '" + name + "' must not be all digits (it would read as an id)");
    }
    return name;
  }

  /** Text that must be present, at most {@code max} characters. */
  static String text(String field, String raw, int max) {
    String text = raw == null ? "" : raw.strip();
    if (text.isEmpty()) {
      throw new InvalidInput(field + " must not be empty");
    }
    if (text.length() > max) {
      throw new InvalidInput(field + " is " + text.length() + " characters; at most " + max);
    }
    return text;
  }

  /** Null stays null (keep), blank becomes "" (clear), anything else is trimmed. */
  static String optional(String raw) {
    return raw == null ? null : raw.strip();
  }

  static String emptyToNull(String text) {
    return text == null || text.isEmpty() ? null : text;
  }
}
