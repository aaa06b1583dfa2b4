package dev.roundhouse.app;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Cold starts, each in a process of its own, against the MCP TypeScript SDK's stdio server started the same way
 * in the same run: {@code serve} to a 200 from {@code /api/health} (a new home each time), and each stdio face
 * ({@code mcp}, {@code acp}, {@code lsp}, with {@code --no-start}) to its answer to {@code initialize} while a
 * hub runs. Every Roundhouse start goes through the launcher ({@code ./roundhouse}, with
 * {@code ROUNDHOUSE_NO_BUILD=1}) twice: as it starts by default (with its start cache, once trained), and with
 * {@code ROUNDHOUSE_START_CACHE=off}. Rounds interleave the targets so the machine's load falls on all of them
 * alike. Prints each target's median, best and worst, the CPU its process had used by its answer, and the
 * ratio of medians to the TypeScript server's.
 *
 * <p>Not thread-safe; one run at a time.
 */
final class StartBenchmark {
  /** The figures of one target: its starts, in the order they ran. */
  record Figures(String name, List<StartProbe.Start> starts) {
    double median() {
      return percentile(starts.stream().mapToDouble(StartProbe.Start::millis).toArray());
    }

    double medianCpu() {
      return percentile(starts.stream().mapToDouble(StartProbe.Start::cpuMillis).toArray());
    }

    private static double percentile(double[] values) {
      double[] sorted = values.clone();
      Arrays.sort(sorted);
      int n = sorted.length;
      return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
  }

  static final String NODE_FOLDER = TypeScriptBenchServer.FOLDER;
  static final String SCRIPT = "start-server.mjs";
  private static final List<String> FACES = List.of("mcp", "acp", "lsp");

  private final Path scratch;
  private final List<String> launcher;
  private final Path node;
  private final Path nodeFolder;
  private final Map<String, String> baseEnv;
  private final int runs;

  /**
   * @param scratch a folder for the homes, deleted by the caller
   * @param launcher the command that starts {@code roundhouse} ({@code ./roundhouse})
   * @param env the environment the starts run in (ROUNDHOUSE_* variables are dropped)
   */
  StartBenchmark(Path scratch, List<String> launcher, Path node, Path nodeFolder, Map<String, String> env, int runs) {
    this.scratch = scratch;
    this.launcher = List.copyOf(launcher);
    this.node = node;
    this.nodeFolder = nodeFolder;
    Map<String, String> base = new HashMap<>(env);
    base.keySet().removeIf(name -> name.startsWith("ROUNDHOUSE_"));
    base.put("ROUNDHOUSE_NO_BUILD", "1");
    base.put("ROUNDHOUSE_LAUNCHER_DEBUG", "1"); // so each start says whether it used the start cache
    base.put("ROUNDHOUSE_PORT", "0");
    this.baseEnv = Map.copyOf(base);
    this.runs = runs;
  }

  Map<String, Figures> run(PrintWriter out) throws IOException, InterruptedException {
    out.printf(Locale.ROOT, "roundhouse bench start: cold starts, %d of each, interleaved; launcher %s; load average before: %s%n",
        runs, String.join(" ", launcher), loadAverage());
    out.flush();
    Map<String, List<StartProbe.Start>> starts = new LinkedHashMap<>();
    Path faceHome = Files.createDirectories(scratch.resolve("faces-home"));
    Process hub = start(List.of("serve"), env(faceHome, true));
    try {
      StartProbe.awaitUrl(hub);
      for (int round = 1; round <= runs; round++) {
        add(starts, "typescript: node " + SCRIPT + " -> initialize",
            StartProbe.stdio(List.of(node.toString(), SCRIPT), Map.of(), nodeFolder, StartProbe.initialize("mcp")));
        for (boolean cache : new boolean[] {true, false}) {
          for (String face : FACES) {
            add(starts, label(face + " -> initialize", cache), StartProbe.stdio(command(face, "--no-start"), env(faceHome, cache),
                scratch, StartProbe.initialize(face)));
          }
          Path home = Files.createDirectories(scratch.resolve("serve-" + round + (cache ? "-cached" : "-plain")));
          long started = System.nanoTime();
          Process serve = start(List.of("serve"), env(home, cache));
          try {
            add(starts, label("serve -> /api/health", cache), StartProbe.serve(serve, started));
          } finally {
            StartProbe.terminate(serve);
          }
        }
        out.printf(Locale.ROOT, "  round %d of %d done%n", round, runs);
        out.flush();
      }
    } finally {
      StartProbe.terminate(hub);
    }
    Map<String, Figures> figures = new LinkedHashMap<>();
    starts.forEach((name, list) -> figures.put(name, new Figures(name, list)));
    report(out, figures);
    return figures;
  }

  private void report(PrintWriter out, Map<String, Figures> figures) {
    Figures baseline = figures.values().iterator().next();
    out.printf(Locale.ROOT, "%-44s %9s %9s %9s %9s %7s %s%n", "target", "median", "best", "worst", "cpu", "ratio", "start cache");
    for (Figures target : figures.values()) {
      double best = target.starts().stream().mapToDouble(StartProbe.Start::millis).min().orElse(0);
      double worst = target.starts().stream().mapToDouble(StartProbe.Start::millis).max().orElse(0);
      long cached = target.starts().stream().filter(StartProbe.Start::cached).count();
      out.printf(Locale.ROOT, "%-44s %7.0fms %7.0fms %7.0fms %7.0fms %6.2fx %s%n", target.name(), target.median(), best, worst,
          target.medianCpu(), target.median() / baseline.median(), target == baseline ? "" : cached + " of " + target.starts().size());
    }
    Optional.ofNullable(figures.get(label("mcp -> initialize", true))).ifPresent(mcp -> out.printf(Locale.ROOT,
        "target: mcp answers initialize (hub running) in under 500 ms: %.0f ms, %s%n", mcp.median(), mcp.median() < 500 ? "met" : "not met"));
    Optional.ofNullable(figures.get(label("serve -> /api/health", true))).ifPresent(serve -> out.printf(Locale.ROOT,
        "target: serve healthy in under 1500 ms: %.0f ms, %s%n", serve.median(), serve.median() < 1500 ? "met" : "not met"));
    out.printf(Locale.ROOT, "(medians; cpu = user + system CPU of the process by its answer; ratio = median / the TypeScript server's median)%n");
    out.printf(Locale.ROOT, "load average after: %s%n", loadAverage());
    out.flush();
  }

  private static String label(String what, boolean cache) {
    return "roundhouse " + what + (cache ? "" : " (cache off)");
  }

  private static void add(Map<String, List<StartProbe.Start>> starts, String name, StartProbe.Start start) {
    starts.computeIfAbsent(name, key -> new ArrayList<>()).add(start);
  }

  private List<String> command(String... args) {
    List<String> command = new ArrayList<>(launcher);
    command.addAll(List.of(args));
    return command;
  }

  private Process start(List<String> args, Map<String, String> env) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command(args.toArray(String[]::new))).directory(scratch.toFile());
    builder.environment().keySet().removeIf(name -> name.startsWith("ROUNDHOUSE_"));
    builder.environment().putAll(env);
    builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
    return builder.start();
  }

  private Map<String, String> env(Path home, boolean cache) {
    Map<String, String> env = new HashMap<>(baseEnv);
    env.put("ROUNDHOUSE_HOME", home.toString());
    if (!cache) {
      env.put("ROUNDHOUSE_START_CACHE", "off");
    }
    return env;
  }

  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2] + " (" + Runtime.getRuntime().availableProcessors() + " cores)";
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }
}
