package dev.roundhouse.hub.board;

import dev.roundhouse.hub.core.RoundhouseException.Conflict;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@code blocked_by} edges of one project, checked for cycles before a change is written. Not
 * thread-safe; built per write.
 */
final class BlockerGraph {
  private final Map<Long, List<Long>> blockedBy;

  BlockerGraph(Map<Long, List<Long>> edges) {
    this.blockedBy = new HashMap<>();
    edges.forEach((task, blockers) -> blockedBy.put(task, new ArrayList<>(blockers)));
  }

  /** Sets the edges of {@code task}, refusing with the cycle named if they would close one. */
  void set(long task, List<Long> blockers) {
    for (long blocker : blockers) {
      List<Long> path = pathTo(blocker, task);
      if (path != null) {
        List<Long> cycle = new ArrayList<>();
        cycle.add(task);
        cycle.addAll(path);
        throw new Conflict(
            "blocked_by would form a cycle: "
                + cycle.stream().map(id -> "#" + id).collect(Collectors.joining(" waits on "))
                + "");
      }
    }
    blockedBy.put(task, new ArrayList<>(blockers));
  }

  /** The chain of waits from {@code from} to {@code to} (both included), or null when there is none. */
  private List<Long> pathTo(long from, long to) {
    Map<Long, Long> cameFrom = new HashMap<>();
    Set<Long> seen = new HashSet<>();
    Deque<Long> queue = new ArrayDeque<>();
    queue.add(from);
    seen.add(from);
    while (!queue.isEmpty()) {
      long current = queue.removeFirst();
      if (current == to) {
        List<Long> path = new ArrayList<>();
        for (Long step = current; step != null; step = cameFrom.get(step)) {
          path.add(step);
        }
        Collections.reverse(path);
        return path;
      }
      for (long next : blockedBy.getOrDefault(current, List.of())) {
        if (seen.add(next)) {
          cameFrom.put(next, current);
          queue.addLast(next);
        }
      }
    }
    return null;
  }
}
