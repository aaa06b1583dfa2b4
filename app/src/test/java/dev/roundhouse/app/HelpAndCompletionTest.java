package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static dev.roundhouse.app.CliTestSupport.ok;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code roundhouse help <command>} and {@code roundhouse completion}: both work without a hub. */
class HelpAndCompletionTest {
  @TempDir Path home;

  @Test
  void helpOfACommandIsThatCommandsUsage() {
    CliResult help = ok(context(home, home), "help", "task");

    assertThat(help.out()).startsWith("Usage: roundhouse task").contains("add").contains("list");
    assertThat(ok(context(home, home), "help", "schedule").out()).startsWith("Usage: roundhouse schedule").contains("preview");
  }

  @Test
  void helpAloneListsEveryCommand() {
    CliResult help = ok(context(home, home), "help");

    assertThat(help.out()).contains("serve").contains("completion").contains("help");
  }

  /** The script loads in a real bash and completes the first word and a subcommand. */
  @Test
  void theCompletionScriptCompletesCommandsInARealBash() throws Exception {
    Path script = home.resolve("roundhouse.bash");
    Files.writeString(script, ok(context(home, home), "completion", "bash").out());
    String probe = "source " + script + "\n"
        + "COMP_WORDS=(roundhouse sch); COMP_CWORD=1; COMP_LINE='roundhouse sch'; COMP_POINT=${#COMP_LINE}; _complete_roundhouse; echo \"${COMPREPLY[*]}\"\n"
        + "COMP_WORDS=(roundhouse schedule pa); COMP_CWORD=2; COMP_LINE='roundhouse schedule pa'; COMP_POINT=${#COMP_LINE}; _complete_roundhouse; echo \"${COMPREPLY[*]}\"\n";
    Process bash = new ProcessBuilder("bash", "-c", probe).redirectErrorStream(true).start();
    assertThat(bash.waitFor(20, TimeUnit.SECONDS)).isTrue();
    String output = new String(bash.getInputStream().readAllBytes());

    assertThat(output.lines().toList()).as(output).containsExactly("schedule", "pause");
  }

  @Test
  void zshGetsTheSameScriptWhichLoadsBashcompinit() {
    assertThat(ok(context(home, home), "completion", "zsh").out()).contains("bashcompinit");
  }
}
