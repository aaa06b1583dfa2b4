package dev.roundhouse.app;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.util.OptionalInt;

/**
 * The {@code roundhouse} command's entry point: runs the command tree on this process's environment and
 * exits with its status (see {@link ExitCode}). stdout carries command output only; logs and diagnostics
 * go to stderr.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    try {
      LogSetup.apply(System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("roundhouse: " + e.getMessage());
      System.exit(ExitCode.USAGE.status());
    }
    // Undertow and XNIO log through JBoss Logging; route it to SLF4J so simplelogger.properties applies.
    if (System.getProperty("org.jboss.logging.provider") == null) {
      System.setProperty("org.jboss.logging.provider", "slf4j");
    }
    PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, System.out.charset()), true);
    PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, System.err.charset()), true);
    Context context = Context.ofProcess();
    // The commands that start often and are timed (the stdio faces, serve) skip picocli in their plain forms.
    OptionalInt quick = FaceStart.run(context, out, err, args);
    if (quick.isEmpty()) {
      quick = ServeStart.run(context, err, args);
    }
    System.exit(quick.isPresent() ? quick.getAsInt() : Cli.run(context, out, err, args));
  }
}
