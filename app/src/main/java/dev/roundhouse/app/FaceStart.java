package dev.roundhouse.app;

import java.io.PrintWriter;
import java.util.OptionalInt;

/**
 * Starts a stdio face ({@code mcp}, {@code lsp}, {@code acp}) without picocli when its command line is one of
 * the plain forms an editor or an MCP client uses: the face's name alone, or with {@code --no-start}. picocli
 * builds its model of a command reflectively from Java 5 class files that no start cache can hold, which cost
 * a face a third of its start (docs/performance.md); anything else (help, the version, a misspelt option) still
 * goes through picocli, which says what is wrong as for every command. Failures are reported as
 * {@link Cli#report} reports them. Stateless.
 */
final class FaceStart {
  private FaceStart() {}

  /**
   * Runs {@code args} when they are a plain stdio face's command line, and returns its exit status; empty when
   * picocli must parse them.
   */
  static OptionalInt run(Context context, PrintWriter out, PrintWriter err, String... args) {
    if (args.length == 0 || args.length > 2 || (args.length == 2 && !args[1].equals("--no-start"))) {
      return OptionalInt.empty();
    }
    boolean noStart = args.length == 2;
    try {
      return switch (args[0]) {
        case "mcp" -> OptionalInt.of(McpCommand.serve(context, out, err, noStart));
        case "lsp" -> OptionalInt.of(LspCommand.serve(context, err, noStart));
        case "acp" -> OptionalInt.of(AcpCommand.serve(context, err, noStart));
        default -> OptionalInt.empty();
      };
    } catch (RuntimeException failure) {
      return OptionalInt.of(Cli.report(failure, err));
    } finally {
      out.flush();
      err.flush();
    }
  }
}
