package dev.roundhouse.app;

import java.io.PrintWriter;
import java.util.OptionalInt;

/**
 * Starts {@code serve} without picocli when its command line is a plain one: {@code serve} with any of
 * {@code --port N}, {@code --bind ADDR} and {@code --allow-remote}, each at most once (also as
 * {@code --port=N}, {@code --bind=ADDR}). picocli's own classes are Java 5 class files that no start cache can
 * hold: building its model cost {@code serve} 0.4 s of its start (docs/performance.md). Anything else (help, the
 * version, a port that is not a number, a misspelt or repeated option) goes through picocli, which says what is
 * wrong as for every command. Stateless.
 */
final class ServeStart {
  private ServeStart() {}

  /** Runs {@code args} when they are a plain {@code serve} command line and returns its exit status; empty otherwise. */
  static OptionalInt run(Context context, PrintWriter err, String... args) {
    if (args.length == 0 || !args[0].equals("serve")) {
      return OptionalInt.empty();
    }
    Integer port = null;
    String bind = null;
    boolean allowRemote = false;
    for (int i = 1; i < args.length; i++) {
      String arg = args[i];
      if (arg.equals("--allow-remote") && !allowRemote) {
        allowRemote = true;
        continue;
      }
      String name = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
      String value;
      if (arg.contains("=")) {
        value = arg.substring(arg.indexOf('=') + 1);
      } else if (i + 1 < args.length && !args[i + 1].startsWith("-")) {
        value = args[++i];
      } else {
        return OptionalInt.empty();
      }
      if (name.equals("--port") && port == null && isPort(value)) {
        port = Integer.valueOf(value);
      } else if (name.equals("--bind") && bind == null && !value.isEmpty()) {
        bind = value;
      } else {
        return OptionalInt.empty();
      }
    }
    try {
      return OptionalInt.of(ServeCommand.serve(context, err, port, bind, allowRemote));
    } catch (InterruptedException failure) {
      Thread.currentThread().interrupt();
      return OptionalInt.of(Cli.report(failure, err));
    } catch (RuntimeException failure) {
      return OptionalInt.of(Cli.report(failure, err));
    } finally {
      err.flush();
    }
  }

  /** A number picocli would take as an Integer (whatever the hub then says about its range). */
  private static boolean isPort(String value) {
    if (value.isEmpty() || value.length() > 9) {
      return false;
    }
    for (int i = 0; i < value.length(); i++) {
      if (value.charAt(i) < '0' || value.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }
}
