package dev.roundhouse.app;

import dev.roundhouse.hub.core.Json;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse bench workspace}: {@code task_diff} on a task with many changed files and on a long history, and
 * many tasks started at once, each against git itself measured in the same run, in a scratch folder (deleted
 * afterwards) with an in-process hub.
 *
 * <p>Not thread-safe: picocli fills it and runs it once, on one thread.
 */
@Command(
    name = "workspace",
    description = "Measure task_diff against git merge-base + git diff --numstat, and many tasks starting at once"
        + " against git worktree add in a shell loop.",
    mixinStandardHelpOptions = true)
final class BenchWorkspaceCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(names = "--files", defaultValue = "2000", description = "Files in the wide case's and the starts' repositories (default ${DEFAULT-VALUE}).")
  int files;

  @Option(names = "--changed", defaultValue = "1000", description = "Files the wide case's task changes (default ${DEFAULT-VALUE}).")
  int changed;

  @Option(names = "--commits", defaultValue = "100000", description = "Commits on the deep case's base branch (default ${DEFAULT-VALUE}).")
  int commits;

  @Option(names = "--behind", defaultValue = "1000",
      description = "Commits the deep case's base moved on after its task was cut (default ${DEFAULT-VALUE}).")
  int behind;

  @Option(names = "--tasks", defaultValue = "50", description = "Tasks started at once (default ${DEFAULT-VALUE}).")
  int tasks;

  @Option(names = "--runs", defaultValue = "15", description = "Measured runs of each side of a diff case (default ${DEFAULT-VALUE}).")
  int runs;

  @Option(names = "--warmup", defaultValue = "5", description = "Runs of each side before the measured ones (default ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--json", description = "Print the figures as one JSON object instead of text.")
  boolean json;

  BenchWorkspaceCommand(Context context) {
    // The scratch folder is always a new temporary one; nothing of the context is needed.
  }

  @Override
  public Integer call() throws Exception {
    if (changed < 10 || changed > files || behind < 0 || behind >= commits || tasks < 1 || runs < 1 || warmup < 0) {
      throw new ParameterException(spec.commandLine(), "need 10 <= --changed <= --files, 0 <= --behind < --commits,"
          + " --tasks and --runs at least 1, --warmup at least 0");
    }
    Path scratch = Files.createTempDirectory("roundhouse-bench-workspace-").toRealPath();
    try {
      PrintWriter out = spec.commandLine().getOut();
      WorkspaceBenchmark.Figures figures =
          new WorkspaceBenchmark(scratch, files, changed, commits, behind, tasks, runs, warmup).run(json ? null : out);
      if (json) {
        out.println(Json.write(figures));
        out.flush();
      }
      return ExitCode.OK.status();
    } finally {
      ScratchFolders.delete(scratch);
    }
  }
}
