package dev.roundhouse.workspace;

import java.util.List;

/**
 * @param dryRun        list what would be removed and why the rest is kept, remove nothing
 * @param retentionDays a landed workspace younger than this is kept
 * @param candidates    the tasks to look at
 */
public record SweepRequest(boolean dryRun, int retentionDays, List<SweepCandidate> candidates) {
  public SweepRequest {
    candidates = List.copyOf(candidates);
  }
}
