package dev.roundhouse.app;

import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.DatabaseUrl;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code roundhouse store copy --to URL}: moves the home's SQLite database into an empty PostgreSQL database,
 * every row with its id and sequence number, in one transaction; the hub then serves from it with {@code
 * ROUNDHOUSE_DATABASE_URL}. Needs no running hub (it holds the home's lock while it copies) and leaves the
 * SQLite file as it was. Not thread-safe (picocli command).
 */
@Command(
    name = "copy",
    description = "Copy the home's SQLite database into an empty PostgreSQL database (stop the hub first).",
    mixinStandardHelpOptions = true)
final class StoreCopyCommand implements Callable<Integer> {
  private final Context context;

  @Spec CommandSpec spec;

  @Option(names = "--to", required = true, paramLabel = "URL",
      description = "The empty PostgreSQL database (postgresql://user@host:5432/db); the password as for serve.")
  String to;

  StoreCopyCommand(Context context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    HubConfig config = context.hubConfig();
    DatabaseUrl target = DatabaseUrl.parse(to, context.env());
    Map<String, Long> copied = Hub.copyStoreToPostgres(config, target);
    PrintWriter out = spec.commandLine().getOut();
    Table table = new Table();
    copied.forEach((name, rows) -> table.row(name, Long.toString(rows)));
    table.print(out);
    out.println("copied " + config.database() + " into " + target.redacted() + "; serve from it with"
        + " ROUNDHOUSE_DATABASE_URL=" + target.redacted());
    out.flush();
    return ExitCode.OK.status();
  }
}
