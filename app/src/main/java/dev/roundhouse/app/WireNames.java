package dev.roundhouse.app;

import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Priority;
import dev.roundhouse.hub.model.TaskStatus;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Converters from the wire names the hub uses ({@code in_progress}, {@code high}) to its enums, so a wrong
 * value is a usage error that lists the valid ones. Stateless; thread-safe.
 */
final class WireNames {
  private WireNames() {}

  static final String STATUSES = "backlog, todo, in_progress, review, done, cancelled";
  static final String PRIORITIES = "low, normal, high, urgent";

  /** {@code --status}: one of {@value #STATUSES}. */
  static final class Status implements ITypeConverter<TaskStatus> {
    @Override
    public TaskStatus convert(String value) {
      try {
        return TaskStatus.parse(value);
      } catch (RoundhouseException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** {@code --priority}: one of {@value #PRIORITIES}. */
  static final class Level implements ITypeConverter<Priority> {
    @Override
    public Priority convert(String value) {
      try {
        return Priority.parse(value);
      } catch (RoundhouseException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
