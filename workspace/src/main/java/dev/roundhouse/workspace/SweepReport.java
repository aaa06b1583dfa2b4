package dev.roundhouse.workspace;

import java.util.List;

/** What the sweep removed (or would remove) and why each other workspace is kept. */
public record SweepReport(boolean dryRun, List<SweepItem> items) {
  public SweepReport {
    items = List.copyOf(items);
  }
}
