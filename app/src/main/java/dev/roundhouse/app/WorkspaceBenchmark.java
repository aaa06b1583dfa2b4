package dev.roundhouse.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.spi.AgentDriver;
import dev.roundhouse.hub.spi.DriverCapabilities;
import dev.roundhouse.hub.spi.TurnContext;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.workspace.hub.WorkspaceExtension;
import dev.roundhouse.workspace.hub.WorkspaceSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The workspace module against git itself, each baseline measured in the same run on the same disk: {@code task_diff}
 * (the operation, through an in-process hub with the workspace extension) on a task with many changed files and on
 * a repository with a long history, against {@code git merge-base} + {@code git diff --numstat} run as processes;
 * and many tasks started at once (worktree creation included) until every turn runs, against creating the same
 * worktrees with the {@code git} CLI in a shell loop. See docs/performance.md ("Workspaces").
 *
 * <p>Not thread-safe; one run at a time.
 */
final class WorkspaceBenchmark {
  private static final Duration WAIT = Duration.ofMinutes(10);

  /** Milliseconds of a sample. */
  record Spread(int count, double p50Millis, double minMillis, double maxMillis) {
    static Spread of(long[] nanos) {
      long[] sorted = nanos.clone();
      Arrays.sort(sorted);
      return new Spread(sorted.length, sorted[(sorted.length - 1) / 2] / 1e6, sorted[0] / 1e6, sorted[sorted.length - 1] / 1e6);
    }
  }

  /**
   * One {@code task_diff} case.
   *
   * @param git {@code git merge-base} then {@code git diff --numstat}, run one after the other (the baseline)
   * @param ratio {@code task_diff} p50 over the baseline's p50 (target: at most 1)
   * @param agree the operation and git report the same files and line counts
   */
  record DiffFigures(String name, int files, int commits, int changedFiles, Spread taskDiff, Spread mergeBase, Spread numstat,
      Spread git, double ratio, boolean agree, NewTip newTip) {
    DiffFigures withNewTip(NewTip figures) {
      return new DiffFigures(name, files, commits, changedFiles, taskDiff, mergeBase, numstat, git, ratio, agree, figures);
    }
  }

  /**
   * The first read after the task committed anew, every changed file with new contents: nothing counted before
   * helps ({@code task_diff} keeps the counts of files already counted). Null for the deep case.
   *
   * @param ratio {@code task_diff} p50 over git's p50 on the same commits
   */
  record NewTip(int rounds, Spread taskDiff, Spread git, double ratio) {}

  /**
   * Starting tasks at once.
   *
   * @param gitLoopMillis the shell loop creating the same number of worktrees (the baseline)
   * @param running each turn, from the first {@code turn_start} to its driver running in its worktree
   * @param ratio the last turn running over the shell loop
   */
  record StartFigures(int tasks, int files, double gitLoopMillis, Spread running, double ratio, int inOwnWorktree) {}

  record Figures(DiffFigures wide, DiffFigures deep, StartFigures start, double loadBefore, double loadAfter) {}

  private final Path scratch;
  private final int files;
  private final int changed;
  private final int commits;
  private final int behind;
  private final int tasks;
  private final int runs;
  private final int warmup;

  /**
   * @param files files in the repositories of the wide case and of the starts
   * @param changed files the wide case's task changes (added, modified and deleted)
   * @param commits commits on the deep case's base branch
   * @param behind of those, how many the base moved on after the deep case's task was cut
   * @param runs measured runs of each side of a diff case, alternating, after {@code warmup} of each
   */
  WorkspaceBenchmark(Path scratch, int files, int changed, int commits, int behind, int tasks, int runs, int warmup) {
    if (changed < 10 || changed > files || behind >= commits || tasks < 1 || runs < 1 || warmup < 0) {
      throw new IllegalArgumentException("need 10 <= changed <= files, behind < commits, tasks and runs >= 1, warmup >= 0");
    }
    this.scratch = scratch;
    this.files = files;
    this.changed = changed;
    this.commits = commits;
    this.behind = behind;
    this.tasks = tasks;
    this.runs = runs;
    this.warmup = warmup;
  }

  Figures run(PrintWriter out) throws Exception {
    PrintWriter text = out == null ? new PrintWriter(java.io.Writer.nullWriter()) : out;
    double loadBefore = loadAverage();
    text.printf(Locale.ROOT, "roundhouse bench workspace: %s; load average %.2f on %d cores%n",
        BenchGit.run(scratch, "--version").stdout().strip(), loadBefore, Runtime.getRuntime().availableProcessors());
    text.flush();
    Map<Long, TurnRequest> entered = new ConcurrentHashMap<>();
    Map<Long, Long> enteredAt = new ConcurrentHashMap<>();
    Set<Long> ended = ConcurrentHashMap.newKeySet();
    Consumer<List<Event>> watch = events -> events.stream()
        .filter(event -> event.type().equals("turn.ended") && event.taskId() != null).forEach(event -> ended.add(event.taskId()));
    // Worktrees in <scratch>/worktrees; the engine's git sees the same configuration as the baseline's.
    WorkspaceSettings settings = WorkspaceSettings.defaults(scratch)
        .withGit("git", Map.of("GIT_CONFIG_GLOBAL", "/dev/null", "GIT_CONFIG_NOSYSTEM", "1"));
    WorkspaceExtension extension = new WorkspaceExtension(settings);
    try (Hub hub = Hub.open(HubConfig.forHome(Files.createDirectories(scratch.resolve("home"))),
        List.of(new EnteringDriver(new dev.roundhouse.drivers.script.ScriptDriver(), entered, enteredAt)), List.of(extension))) {
      hub.events().observe(watch);
      DiffFigures wide = wide(hub, text);
      DiffFigures deep = deep(hub, text);
      StartFigures start = start(hub, text, entered, enteredAt, ended);
      hub.events().unobserve(watch);
      double loadAfter = loadAverage();
      text.printf(Locale.ROOT, "load average after: %.2f%n", loadAfter);
      text.flush();
      return new Figures(wide, deep, start, loadBefore, loadAfter);
    } finally {
      extension.close();
    }
  }

  /** A task that changed {@code changed} files of a {@code files}-file repository, in one commit. */
  private DiffFigures wide(Hub hub, PrintWriter text) throws IOException {
    Path repository = scratch.resolve("wide");
    long start = System.nanoTime();
    BenchGit.init(repository);
    BenchGit.importCommits(repository, files, 0, 1, false);
    BenchGit.run(repository, "reset", "-q", "--hard");
    long task = task(hub, "wide", repository);
    JsonNode worktree = ensure(hub, task);
    Path folder = Path.of(worktree.path("path").asText());
    int removed = changed / 20;
    int added = changed / 20;
    for (int f = 0; f < changed - added; f++) {
      Path file = folder.resolve(BenchGit.path(f));
      if (f < removed) {
        Files.delete(file);
      } else {
        Files.writeString(file, BenchGit.file(f, 1) + "added line\n");
      }
    }
    for (int f = files; f < files + added; f++) {
      Path file = folder.resolve(BenchGit.path(f));
      Files.createDirectories(file.getParent());
      Files.writeString(file, "new file " + f + "\n");
    }
    BenchGit.run(folder, "add", "-A");
    BenchGit.run(folder, "commit", "-q", "-m", "change " + changed + " files");
    text.printf(Locale.ROOT, "wide: %d files, a task changing %d of them (%d deleted, %d added, the rest modified), built in %.1f s%n",
        files, changed, removed, added, (System.nanoTime() - start) / 1e9);
    text.flush();
    String branch = worktree.path("branch").asText();
    DiffFigures warm = compare(hub, text, "wide", task, repository, folder, branch, files, 1);
    List<Path> kept = new ArrayList<>();
    for (int f = removed; f < changed - added; f++) {
      kept.add(folder.resolve(BenchGit.path(f)));
    }
    for (int f = files; f < files + added; f++) {
      kept.add(folder.resolve(BenchGit.path(f)));
    }
    return warm.withNewTip(newTips(hub, text, task, repository, folder, branch, kept));
  }

  /** {@link NewTip}: each round appends a line to every file the task changed and keeps, commits, then reads once. */
  private NewTip newTips(Hub hub, PrintWriter text, long task, Path repository, Path worktree, String branch, List<Path> changedFiles)
      throws IOException {
    int rounds = Math.max(3, Math.min(runs, 7));
    long[] ours = new long[rounds];
    long[] git = new long[rounds];
    for (int round = 0; round < rounds; round++) {
      for (Path file : changedFiles) {
        Files.writeString(file, "round " + round + "\n", StandardOpenOption.APPEND);
      }
      BenchGit.run(worktree, "commit", "-q", "-a", "-m", "round " + round);
      long start = System.nanoTime();
      invoke(hub, "task_diff", Map.of("task", task));
      ours[round] = System.nanoTime() - start;
      BenchGit.Run base = BenchGit.run(repository, "merge-base", "main", branch);
      git[round] = base.nanos() + BenchGit.run(worktree, "diff", "--numstat", base.stdout().strip()).nanos();
    }
    NewTip figures = new NewTip(rounds, Spread.of(ours), Spread.of(git), Spread.of(ours).p50Millis() / Spread.of(git).p50Millis());
    text.printf(Locale.ROOT, "  first read after a new commit to all %d files, %d rounds: task_diff p50 %.1f ms (min %.1f), git p50 %.1f ms:"
        + " %.2fx%n", changedFiles.size(), rounds, figures.taskDiff().p50Millis(), figures.taskDiff().minMillis(),
        figures.git().p50Millis(), figures.ratio());
    text.flush();
    return figures;
  }

  /** A task on a base of {@code commits} commits, cut {@code behind} commits before the base's tip. */
  private DiffFigures deep(Hub hub, PrintWriter text) throws IOException {
    Path repository = scratch.resolve("deep");
    long start = System.nanoTime();
    int deepFiles = 100;
    BenchGit.init(repository);
    BenchGit.importCommits(repository, deepFiles, 0, commits - behind, false);
    BenchGit.run(repository, "reset", "-q", "--hard");
    long task = task(hub, "deep", repository);
    JsonNode worktree = ensure(hub, task);
    Path folder = Path.of(worktree.path("path").asText());
    for (int c = 0; c < 3; c++) {
      for (int f = 0; f < 5; f++) {
        Files.writeString(folder.resolve(BenchGit.path(c * 5 + f)), BenchGit.file(c * 5 + f, 1) + "task commit " + c + "\n");
      }
      BenchGit.run(folder, "commit", "-q", "-a", "-m", "task commit " + c);
    }
    BenchGit.run(repository, "checkout", "-q", "--detach");
    BenchGit.importCommits(repository, deepFiles, commits - behind, behind, true);
    text.printf(Locale.ROOT, "deep: %d commits on main, a task of 3 commits cut %d commits before its tip, built in %.1f s%n",
        commits, behind, (System.nanoTime() - start) / 1e9);
    text.flush();
    return compare(hub, text, "deep", task, repository, folder, worktree.path("branch").asText(), deepFiles, commits);
  }

  private DiffFigures compare(Hub hub, PrintWriter text, String name, long task, Path repository, Path worktree, String branch,
      int repositoryFiles, int history) {
    long[] ours = new long[runs];
    long[] mergeBase = new long[runs];
    long[] numstat = new long[runs];
    long[] git = new long[runs];
    JsonNode diff = null;
    List<String> lines = List.of();
    for (int i = -warmup; i < runs; i++) {
      long start = System.nanoTime();
      diff = invoke(hub, "task_diff", Map.of("task", task)).path("diff");
      long taskDiff = System.nanoTime() - start;
      BenchGit.Run base = BenchGit.run(repository, "merge-base", "main", branch);
      BenchGit.Run stat = BenchGit.run(worktree, "diff", "--numstat", base.stdout().strip());
      lines = stat.stdout().lines().toList();
      if (i >= 0) {
        ours[i] = taskDiff;
        mergeBase[i] = base.nanos();
        numstat[i] = stat.nanos();
        git[i] = base.nanos() + stat.nanos();
      }
    }
    int gitAdded = 0;
    int gitRemoved = 0;
    for (String line : lines) {
      String[] parts = line.split("\t", 3);
      gitAdded += parts[0].equals("-") ? 0 : Integer.parseInt(parts[0]);
      gitRemoved += parts[1].equals("-") ? 0 : Integer.parseInt(parts[1]);
    }
    boolean agree = diff.path("files").size() == lines.size() && diff.path("added").asInt() == gitAdded
        && diff.path("removed").asInt() == gitRemoved;
    DiffFigures figures = new DiffFigures(name, repositoryFiles, history, lines.size(), Spread.of(ours), Spread.of(mergeBase),
        Spread.of(numstat), Spread.of(git), Spread.of(ours).p50Millis() / Spread.of(git).p50Millis(), agree, null);
    text.printf(Locale.ROOT, "  task_diff (%d files, +%d -%d): p50 %.1f ms (min %.1f, max %.1f) over %d warm runs%n",
        diff.path("files").size(), diff.path("added").asInt(), diff.path("removed").asInt(), figures.taskDiff().p50Millis(),
        figures.taskDiff().minMillis(), figures.taskDiff().maxMillis(), runs);
    text.printf(Locale.ROOT, "  git merge-base + git diff --numstat (%d files, +%d -%d): p50 %.1f ms (merge-base %.1f, diff %.1f; min %.1f)%n",
        lines.size(), gitAdded, gitRemoved, figures.git().p50Millis(), figures.mergeBase().p50Millis(), figures.numstat().p50Millis(),
        figures.git().minMillis());
    text.printf(Locale.ROOT, "  ratio task_diff / git: %.2fx (target at most 1x); same files and counts: %s%n", figures.ratio(),
        agree ? "yes" : "NO");
    text.flush();
    return figures;
  }

  /** {@code tasks} tasks started at once, until every turn runs in its own new worktree, against a shell loop of git. */
  private StartFigures start(Hub hub, PrintWriter text, Map<Long, TurnRequest> entered, Map<Long, Long> enteredAt, Set<Long> ended)
      throws Exception {
    Path loop = scratch.resolve("start-git");
    Path repository = scratch.resolve("start-hub");
    for (Path folder : List.of(loop, repository)) {
      BenchGit.init(folder);
      BenchGit.importCommits(folder, files, 0, 1, false);
      BenchGit.run(folder, "reset", "-q", "--hard");
    }
    Path loopWorktrees = Files.createDirectories(scratch.resolve("loop-worktrees"));
    BenchGit.Run shell = BenchGit.shell(loop, "i=0; while [ $i -lt " + tasks + " ]; do i=$((i+1)); git worktree add -q --no-track -b loop/$i "
        + loopWorktrees + "/$i main || exit 1; done");
    double loopMillis = shell.nanos() / 1e6;
    text.printf(Locale.ROOT, "start: %d worktrees of a %d-file repository with git worktree add in a shell loop: %.0f ms%n",
        tasks, files, loopMillis);
    text.flush();

    invoke(hub, "project_create", Map.of("name", "start", "path", repository.toString(), "default_agent", "script"));
    long[] ids = new long[tasks];
    for (int i = 0; i < tasks; i++) {
      ids[i] = invoke(hub, "task_create", Map.of("project", "start", "title", "start " + i)).get("id").asLong();
    }
    CountDownLatch gate = new CountDownLatch(1);
    List<Thread> starters = new ArrayList<>();
    for (long id : ids) {
      starters.add(Thread.ofVirtual().start(() -> {
        try {
          gate.await();
          invoke(hub, "turn_start", Map.of("task", id, "message", "hello"));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }));
    }
    long start = System.nanoTime();
    gate.countDown();
    for (Thread starter : starters) {
      starter.join(WAIT.toMillis());
    }
    await("every turn to run", () -> Arrays.stream(ids).allMatch(enteredAt::containsKey));
    await("every turn to end", () -> Arrays.stream(ids).allMatch(ended::contains));
    long[] running = Arrays.stream(ids).map(id -> enteredAt.get(id) - start).toArray();
    Spread spread = Spread.of(running);
    Path placed = scratch.resolve("worktrees").resolve("start").toRealPath();
    int own = (int) Arrays.stream(ids)
        .filter(id -> entered.get(id).workingDirectory().toAbsolutePath().equals(placed.resolve(Long.toString(id)))).count();
    StartFigures figures = new StartFigures(tasks, files, loopMillis, spread, spread.maxMillis() / loopMillis, own);
    text.printf(Locale.ROOT, "  %d tasks started at once (turn_start from %d threads), script driver: all running after %.0f ms"
        + " (first %.0f ms, p50 %.0f ms); %d of %d in their own new worktree%n", tasks, tasks, spread.maxMillis(), spread.minMillis(),
        spread.p50Millis(), own, tasks);
    text.printf(Locale.ROOT, "  ratio all running / shell loop: %.2fx%n", figures.ratio());
    text.flush();
    return figures;
  }

  private static long task(Hub hub, String project, Path repository) {
    invoke(hub, "project_create", Map.of("name", project, "path", repository.toString(), "default_agent", "script"));
    return invoke(hub, "task_create", Map.of("project", project, "title", project + " task")).get("id").asLong();
  }

  private static JsonNode ensure(Hub hub, long task) {
    return invoke(hub, "task_workspace", Map.of("task", task, "ensure", true)).path("worktree");
  }

  private static JsonNode invoke(Hub hub, String op, Map<String, Object> input) {
    return hub.operations().invoke(op, Actor.USER, Json.tree(input));
  }

  private static void await(String what, java.util.function.BooleanSupplier done) throws InterruptedException {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (!done.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("timed out after " + WAIT.toMinutes() + " min waiting for " + what);
      }
      Thread.sleep(1);
    }
  }

  private static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  /** Notes when each turn's driver starts running, and where. Thread-safe: concurrent maps. */
  private record EnteringDriver(AgentDriver delegate, Map<Long, TurnRequest> entered, Map<Long, Long> enteredAt) implements AgentDriver {
    @Override
    public String id() {
      return delegate.id();
    }

    @Override
    public DriverCapabilities capabilities() {
      return delegate.capabilities();
    }

    @Override
    public void run(TurnRequest request, TurnContext context) throws Exception {
      enteredAt.putIfAbsent(request.taskId(), System.nanoTime());
      entered.putIfAbsent(request.taskId(), request);
      delegate.run(request, context);
    }
  }
}
