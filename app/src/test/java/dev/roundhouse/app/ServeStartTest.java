package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code serve} without picocli ({@link ServeStart}): its plain command lines never load picocli, and every other
 * form still gets picocli's help and usage errors. Real processes, and the parser called directly.
 */
@ExtendWith(NoLeakedProcesses.class)
class ServeStartTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @TempDir Path home;
  @TempDir Path logs;

  @Test
  void servePlainStartsWithoutLoadingPicocliAndStopsCleanly() throws Exception {
    Path classes = logs.resolve("classes.txt");
    try (RoundhouseProcess hub = RoundhouseProcess.start(
        RoundhouseProcess.builder(home, List.of("-Xlog:class+load=info:file=" + classes), "serve", "--port=0", "--bind", "127.0.0.1"))) {
      hub.awaitErrLine(line -> McpStdioTest.listening(line).matches(), TIMEOUT);
      hub.terminate();
      assertThat(hub.awaitExit(TIMEOUT)).as(hub.err()).isZero();
    }
    assertThat(Files.readString(classes)).contains("dev.roundhouse.app.ServeStart").doesNotContain(" picocli.");
  }

  @Test
  void aRefusedBindOnThePlainPathSaysWhyAsPicocliWouldAndLeavesTheHomeEmpty() throws Exception {
    CliResult refused = RoundhouseProcess.run(home, TIMEOUT, "serve", "--port", "0", "--bind", "0.0.0.0");
    assertThat(refused.exit()).isEqualTo(5);
    assertThat(refused.err()).startsWith("roundhouse: refusing to bind 0.0.0.0").contains("--allow-remote");
    try (var created = Files.list(home)) {
      assertThat(created).isEmpty();
    }
  }

  @Test
  void helpBadValuesAndRepeatedOptionsStillGoThroughPicocli() {
    CliResult help = RoundhouseProcess.run(home, TIMEOUT, "serve", "--help");
    assertThat(help.exit()).as(help.err()).isZero();
    assertThat(help.out()).contains("Usage: roundhouse serve").contains("--allow-remote");
    CliResult notANumber = RoundhouseProcess.run(home, TIMEOUT, "serve", "--port", "seventy");
    assertThat(notANumber.exit()).isEqualTo(2);
    assertThat(notANumber.err()).contains("Invalid value for option '--port'").contains("seventy");
    CliResult twice = RoundhouseProcess.run(home, TIMEOUT, "serve", "--port", "0", "--port", "1");
    assertThat(twice.exit()).isEqualTo(2);
    assertThat(twice.err()).contains("--port").contains("only once");
  }

  @Test
  void onlyThePlainFormsAreTaken() {
    Context context = new Context(Map.of("ROUNDHOUSE_HOME", home.toString()), home);
    PrintWriter err = new PrintWriter(new StringWriter());
    for (List<String> args : List.<List<String>>of(
        List.of("serve", "--help"), List.of("serve", "-h"), List.of("serve", "--version"), List.of("serve", "--port"),
        List.of("serve", "--port", "-1"), List.of("serve", "--port", "+1"), List.of("serve", "--port", "٣"),
        List.of("serve", "--port", "1234567890"), List.of("serve", "--bind="), List.of("serve", "--allow-remote", "--allow-remote"),
        List.of("serve", "--bind", "a", "--bind", "b"), List.of("serve", "extra"), List.of("serve", "--prot", "1"),
        List.of("serve", "--allow-remote=true"), List.of("serves"), List.of("mcp"), List.of())) {
      assertThat(ServeStart.run(context, err, args.toArray(String[]::new))).as(String.join(" ", args)).isEmpty();
    }
  }
}
