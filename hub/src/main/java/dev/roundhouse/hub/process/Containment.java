package dev.roundhouse.hub.process;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How this hub keeps the processes it starts from outliving what they were started for, as far as the
 * machine allows: found once at boot ({@link #detect}), named by {@code doctor}, and applied by each
 * {@link ProcessScope} it opens.
 *
 * <ul>
 *   <li><b>cgroup v2</b>, where the hub may make cgroups under its own: each scope gets one, and
 *       {@code cgroup.kill} ends everything in it, however it left its group or cleared its environment;
 *   <li><b>parent death</b> ({@code setpriv --pdeathsig KILL}, util-linux): the direct child is killed by the
 *       kernel the moment the hub dies, even by SIGKILL (its own children are not: the signal is not
 *       inherited; the next boot reaps them);
 *   <li><b>run marker and process group</b>, always: a session and group of its own per child, and
 *       {@code ROUNDHOUSE_RUN} and {@code ROUNDHOUSE_HUB} in its environment, which descendants inherit.
 * </ul>
 *
 * <p>At boot ({@link #reapLeftovers}), what the last hub left is ended: its scopes' cgroups, every stored
 * record's group whose leader is still the recorded process (same boot, start time and command line or
 * marker: a recycled pid is left alone), and every process carrying this hub's marker (which also catches a
 * child forked in the instant before its record was stored). Call it only while holding the home's lock.
 *
 * <p>Immutable; thread-safe.
 */
public final class Containment implements ProcessScopes {
  private static final Logger LOG = LoggerFactory.getLogger(Containment.class);

  /** The variable every contained child carries, with the hub's id (one per home) as its value. */
  public static final String HUB_VARIABLE = "ROUNDHOUSE_HUB";

  /**
   * What is active here.
   *
   * @param cgroupDir the hub's cgroup folder (each scope's cgroup is made in it), or empty
   * @param cgroupNote where it is, or why there is none
   * @param parentDeath whether children are started with a parent-death signal
   * @param parentDeathNote how, or why not
   * @param groups whether children get a process group of their own ({@code setsid} is installed)
   */
  public record Mechanisms(Optional<Path> cgroupDir, String cgroupNote, boolean parentDeath, String parentDeathNote,
      boolean groups) {
    /** One line for {@code doctor} and the log, such as "cgroup v2 + parent-death signal + run marker and process group". */
    public String summary() {
      List<String> active = new ArrayList<>();
      cgroupDir.ifPresent(dir -> active.add("cgroup v2"));
      if (parentDeath) {
        active.add("parent-death signal");
      }
      active.add(groups ? "run marker and process group" : "run marker (no setsid: no process groups)");
      return String.join(" + ", active);
    }
  }

  /**
   * What a boot reaped.
   *
   * @param records what became of each stored record
   * @param fromCgroups processes ended through leftover cgroups
   * @param marked processes ended because they carried this hub's marker
   */
  public record BootReap(List<ReapResult> records, List<Long> fromCgroups, List<Long> marked) {
    /** Every pid ended, without repeats. */
    public Set<Long> killed() {
      Set<Long> all = new LinkedHashSet<>(fromCgroups);
      records.forEach(result -> all.addAll(result.killed()));
      all.addAll(marked);
      return all;
    }
  }

  private final String hubId;
  private final Mechanisms mechanisms;
  private final Clock clock;

  private Containment(String hubId, Mechanisms mechanisms, Clock clock) {
    this.hubId = hubId;
    this.mechanisms = mechanisms;
    this.clock = clock;
  }

  /** Probes what the machine offers for the hub whose home is {@code home} (a cgroup is made and removed). */
  public static Containment detect(Path home, Clock clock) {
    return detect(home, clock, true);
  }

  /**
   * As {@link #detect(Path, Clock)}; with {@code cgroups} false no cgroup is made, as where the hub may not
   * (tests of the fallback).
   */
  public static Containment detect(Path home, Clock clock, boolean cgroups) {
    String hubId = hubId(home);
    Cgroups.Detected cgroup = cgroups ? Cgroups.detect(hubId) : new Cgroups.Detected(Optional.empty(), "not used (switched off)");
    boolean parentDeath = false;
    String parentDeathNote;
    if (Binaries.SETPRIV.isEmpty()) {
      parentDeathNote = "setpriv (util-linux) is not installed";
    } else if (!setprivTakesPdeathsig()) {
      parentDeathNote = Binaries.SETPRIV.get() + " has no --pdeathsig (util-linux 2.33 or newer needed)";
    } else {
      parentDeath = true;
      parentDeathNote = Binaries.SETPRIV.get() + " --pdeathsig KILL, forked from one long-lived thread";
    }
    Mechanisms mechanisms = new Mechanisms(cgroup.hubDir(), cgroup.note(), parentDeath, parentDeathNote,
        Binaries.SETSID.isPresent());
    return new Containment(hubId, mechanisms, clock);
  }

  public Mechanisms mechanisms() {
    return mechanisms;
  }

  /** The value of {@code ROUNDHOUSE_HUB} this hub's children carry. */
  public String hubId() {
    return hubId;
  }

  /** A new scope for {@code owner} (such as {@code turn:12}), journaling its groups in {@code journal}. */
  @Override
  public ProcessScope open(String owner, ProcessJournal journal) {
    return new ProcessScope(mechanisms, hubId, owner, journal, clock);
  }

  /** Ends what the last hub of this home left (see the class comment); {@code grace} is SIGTERM to SIGKILL. */
  public BootReap reapLeftovers(Collection<ProcessRecord> records, Duration grace) {
    Set<Path> cgroups = new LinkedHashSet<>();
    records.stream().map(ProcessRecord::cgroup).filter(dir -> dir != null).map(Path::of).forEach(cgroups::add);
    mechanisms.cgroupDir().ifPresent(dir -> cgroups.addAll(Cgroups.children(dir)));
    List<Long> fromCgroups = new ArrayList<>();
    for (Path dir : cgroups) {
      fromCgroups.addAll(Cgroups.members(dir));
      if (!Cgroups.killAndRemove(dir, Duration.ofSeconds(5))) {
        LOG.warn("could not remove the cgroup {} a previous hub left", dir);
      }
    }
    List<ReapResult> results = ProcessReaper.reap(records, grace);
    List<Long> marked = new ProcessGroup(HUB_VARIABLE, hubId, Set.of()).members().stream().map(ProcFs.Stat::pid).toList();
    if (!marked.isEmpty()) {
      new ProcessGroup(HUB_VARIABLE, hubId, Set.of()).kill();
    }
    BootReap reap = new BootReap(results, fromCgroups, marked);
    if (!reap.killed().isEmpty()) {
      LOG.info("ended {} process(es) a previous hub left running: {}", reap.killed().size(), reap.killed());
    }
    return reap;
  }

  /** Removes the hub's cgroup folder if no scope uses it (on a clean shutdown). */
  public void close() {
    mechanisms.cgroupDir().ifPresent(dir -> Cgroups.remove(dir, Duration.ZERO));
  }

  /** A stable id per home: the first 16 hex digits of the SHA-256 of its absolute path. */
  static String hubId(Path home) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256")
          .digest(home.toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  private static boolean setprivTakesPdeathsig() {
    try {
      Process probe = new ProcessBuilder(Binaries.SETPRIV.orElseThrow(), "--pdeathsig", "KILL", "--", "true")
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      return probe.waitFor(10, TimeUnit.SECONDS) && probe.exitValue() == 0;
    } catch (java.io.IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

}
