package dev.roundhouse.services;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Gives each project a stable {@code PORT}: ports from {@code base} are cut into blocks of
 * {@code blockSize}; a project's block is chosen by a hash of its name (FNV-1a, the same on every machine
 * and JVM), and on a collision with another project's block the next free block is taken. The project's
 * {@code PORT} is the first port of its block; the others are its extra ports ({@code PORT_1}, …). The
 * assignment is returned for the caller to store: a project keeps its port even if a project that took its
 * preferred block is removed later. The default range, 21000-25999, lies below Linux's ephemeral range
 * (32768-60999), so outgoing connections never hold a project's port.
 *
 * <p>Immutable; thread-safe.
 */
public final class PortPlan {
  private final int base;
  private final int blocks;
  private final int blockSize;

  public PortPlan(int base, int blocks, int blockSize) {
    if (blockSize < 1 || blocks < 1 || base < 1024 || (long) base + (long) blocks * blockSize > 65_536) {
      throw new ServiceException("port plan base " + base + " with " + blocks + " blocks of " + blockSize
          + " does not fit between 1024 and 65535");
    }
    this.base = base;
    this.blocks = blocks;
    this.blockSize = blockSize;
  }

  /** 500 blocks of 10 ports from 21000. */
  public static PortPlan defaults() {
    return new PortPlan(21_000, 500, 10);
  }

  /**
   * The project's {@code PORT}: the one already assigned, else the first free block from its preferred one.
   *
   * @param assigned the ports already given to projects, by project name
   */
  public int portFor(String project, Map<String, Integer> assigned) {
    Integer existing = assigned.get(project);
    if (existing != null) {
      return existing;
    }
    Set<Integer> taken = new HashSet<>();
    assigned.values().forEach(port -> taken.add(Math.floorDiv(port - base, blockSize)));
    int preferred = Integer.remainderUnsigned(fnv1a(project), blocks);
    for (int i = 0; i < blocks; i++) {
      int block = (preferred + i) % blocks;
      if (!taken.contains(block)) {
        return base + block * blockSize;
      }
    }
    throw new ServiceException("no free port block is left for project " + project + ": all " + blocks
        + " blocks from " + base + " are assigned");
  }

  /** Extra port {@code index} (1 to blockSize - 1) of a project whose {@code PORT} is {@code projectPort}. */
  public int extraPort(int projectPort, int index) {
    if (index < 1 || index >= blockSize) {
      throw new ServiceException("extra port " + index + " is out of range: a project has extra ports 1 to "
          + (blockSize - 1));
    }
    return projectPort + index;
  }

  public int blockSize() {
    return blockSize;
  }

  static int fnv1a(String text) {
    int hash = 0x811c9dc5;
    for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
      hash ^= b & 0xff;
      hash *= 0x01000193;
    }
    return hash;
  }
}
