package dev.roundhouse.workspace;

import java.util.List;

/**
 * @param outcome   how it ended
 * @param target    the branch that was to move (the base for a merge, the task branch for a sync)
 * @param before    the target's tip before
 * @param after     the target's tip after (equal to {@code before} unless it moved)
 * @param conflicts the conflicting paths, for {@link MergeOutcome#CONFLICT}
 * @param message   a sentence for the user
 * @param remoteRewrite the rewrite of the base on its remote that the sync's fetch showed, or null
 */
public record MergeResult(MergeOutcome outcome, String target, String before, String after, List<String> conflicts,
    String message, RemoteRewrite remoteRewrite) {
  public MergeResult {
    conflicts = List.copyOf(conflicts);
  }

  public MergeResult(MergeOutcome outcome, String target, String before, String after, List<String> conflicts, String message) {
    this(outcome, target, before, after, conflicts, message, null);
  }

  /** This result, saying what the fetch before it showed. */
  public MergeResult withRemoteRewrite(RemoteRewrite rewrite) {
    return new MergeResult(outcome, target, before, after, conflicts, message, rewrite);
  }
}
