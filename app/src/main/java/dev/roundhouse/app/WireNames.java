package dev.roundhouse.app;

import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.MissedPolicy;
import dev.roundhouse.hub.model.OverlapPolicy;
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
  static final String MISSED = "skip, run_once";
  static final String OVERLAP = "skip, queue, allow";

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

  /** {@code --missed}: one of {@value #MISSED}. */
  static final class Missed implements ITypeConverter<MissedPolicy> {
    @Override
    public MissedPolicy convert(String value) {
      for (MissedPolicy policy : MissedPolicy.values()) {
        if (policy.wireName().equals(value.strip())) {
          return policy;
        }
      }
      throw new TypeConversionException("unknown missed policy '" + value + "'; give one of " + MISSED);
    }
  }

  /** {@code --overlap}: one of {@value #OVERLAP}. */
  static final class Overlap implements ITypeConverter<OverlapPolicy> {
    @Override
    public OverlapPolicy convert(String value) {
      for (OverlapPolicy policy : OverlapPolicy.values()) {
        if (policy.wireName().equals(value.strip())) {
          return policy;
        }
      }
      throw new TypeConversionException("unknown overlap policy '" + value + "'; give one of " + OVERLAP);
    }
  }
}
