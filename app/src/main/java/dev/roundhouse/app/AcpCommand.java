package dev.roundhouse.app;

import dev.roundhouse.lspbridge.acp.AcpAgent;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse acp}: the ACP agent on stdin and stdout, for an editor (Zed, JetBrains AI Chat, Neovim)
 * to start. It attaches to the running hub (found as the other client commands find it, again after the hub
 * restarts); with no hub running it starts one in the background (unless --no-start, which exits 3). Stdout carries only the
 * protocol: everything else the process prints goes to stderr. See docs/acp.md.
 *
 * <p>Not thread-safe: picocli fills it and runs it once, on one thread.
 */
@Command(
    name = "acp",
    description = "Serve an ACP agent on stdin/stdout for Zed, JetBrains AI Chat or Neovim, attached to the running hub (docs/acp.md).",
    mixinStandardHelpOptions = true)
final class AcpCommand implements Callable<Integer> {
  private final Context context;

  @Spec CommandSpec spec;

  @Option(names = "--no-start", description = "Exit 3 instead of starting a hub when none runs.")
  boolean noStart;

  AcpCommand(Context context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    return serve(context, spec.commandLine().getErr(), noStart);
  }

  /** Serves ACP on stdin and stdout until the editor closes it (with or without picocli: see {@link FaceStart}). */
  static int serve(Context context, java.io.PrintWriter err, boolean noStart) {
    return EditorFace.run(context, err, "acp", "ACP", noStart, AcpAgent::serve);
  }
}
