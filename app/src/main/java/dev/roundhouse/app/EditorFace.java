package dev.roundhouse.app;

import dev.roundhouse.hubclient.HubAddress;
import dev.roundhouse.hubclient.HubUnavailableException;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.function.Supplier;

/**
 * Runs a stdio face for an editor ({@code lsp}, {@code acp}): attaches to the running hub (found as every
 * client command finds it, and found again after the hub restarts; with none running it starts one in
 * the background, see {@link BackgroundHub}), says where on stderr, and gives the face the real stdout for
 * its protocol while anything else printed goes to stderr. Stateless.
 */
final class EditorFace {
  /** A face serving its protocol until the editor closes it; returns the exit status. */
  @FunctionalInterface
  interface Server {
    int serve(InputStream in, OutputStream protocol, Supplier<HubAddress> hub);
  }

  private EditorFace() {}

  static int run(Context context, PrintWriter err, String command, String protocolName, boolean noStart, Server server) {
    HubEndpoint first = BackgroundHub.locateOrStart(context, err, command, noStart);
    err.println("roundhouse " + command + ": attached to the hub at " + first.url() + "; serving " + protocolName + " on stdin/stdout");
    err.flush();
    Supplier<HubAddress> locator = () -> {
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
      return server.serve(context.stdin(), protocol, locator);
    } finally {
      System.setOut(stdout);
    }
  }
}
