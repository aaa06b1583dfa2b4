package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LspCommandTest {
  @TempDir Path emptyHome;

  @Test
  void withNoStartAndNoHubRunningLspExits3SayingHowToStartOne() {
    CliResult result = CliResult.run(context(emptyHome, emptyHome), "lsp", "--no-start");

    assertThat(result.exit()).isEqualTo(3);
    assertThat(result.out()).as("stdout carries only the protocol").isEmpty();
    assertThat(result.err()).isEqualTo("roundhouse: no hub is running for " + emptyHome + "; start one with ./roundhouse serve\n");
  }
}
