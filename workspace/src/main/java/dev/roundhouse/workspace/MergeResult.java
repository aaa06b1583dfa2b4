package dev.roundhouse.workspace;

import java.util.List;

/**
 * @param outcome   how it ended
 * @param target    the branch that was to move (the base for a merge, the task branch for a sync)
 * @param before    the target's tip before
 * @param after     the target's tip after (equal to {@code before} unless it moved)
 * @param conflicts the conflicting paths, for {@link MergeOutcome#CONFLICT}
 * @param message   a sentence for the user
 */
public record MergeResult(MergeOutcome outcome, String target, String before, String after, List<String> conflicts,
    String message) {
  public MergeResult {
    conflicts = List.copyOf(conflicts);
  }
}
