package dev.roundhouse.app;

import dev.roundhouse.lspbridge.HubAddress;
import dev.roundhouse.lspbridge.HubUnavailableException;
import dev.roundhouse.lspbridge.AcpAgent;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse acp}: the ACP agent on stdin and stdout, for an editor (Zed, JetBrains AI Chat, Neovim)
 * to start. It attaches to the running hub (found as the other client commands find it, again after the hub
 * restarts); with no hub it says so on stderr and exits 3. Starting a hub in the background is a later step. Stdout carries only the
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

  AcpCommand(Context context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    HubEndpoint first = HubEndpoint.locate(context); // no hub: a CliFailure with the fix, on stderr
    PrintWriter err = spec.commandLine().getErr();
    err.println("roundhouse acp: attached to the hub at " + first.url() + "; serving ACP on stdin/stdout");
    err.flush();
    Supplier<HubAddress> locator =
        () -> {
          try {
            HubEndpoint endpoint = HubEndpoint.locate(context);
            return new HubAddress(endpoint.url(), endpoint.token());
          } catch (CliFailure failure) {
            throw new HubUnavailableException(failure.getMessage(), failure);
          }
        };
    PrintStream stdout = System.out;
    OutputStream protocol = new FileOutputStream(FileDescriptor.out);
    System.setOut(System.err); // a stray print must not corrupt the protocol stream
    try {
      return AcpAgent.serve(context.stdin(), protocol, locator);
    } finally {
      System.setOut(stdout);
    }
  }
}
