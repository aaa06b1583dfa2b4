package dev.roundhouse.calendaragent;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The prompt override's watch, looked through by hand ({@link PromptWatch#check}; its own looks are an hour
 * apart here): creating, editing and deleting the override each count once, looking again at an unchanged one
 * does not.
 */
class PromptWatchTest {
  @TempDir Path home;

  @Test
  void creatingEditingAndDeletingTheOverrideEachCountOnce() throws Exception {
    AtomicInteger changes = new AtomicInteger();
    Path override = home.resolve(CalendarPrompt.FILE);
    try (PromptWatch watch = PromptWatch.start(new CalendarPrompt(home), Duration.ofHours(1), changes::incrementAndGet)) {
      watch.check();
      assertThat(changes).as("no override, as at the start").hasValue(0);

      Files.writeString(override, "# Mine, version 1\n");
      watch.check();
      assertThat(changes).as("created").hasValue(1);
      watch.check();
      assertThat(changes).as("looked at again, unchanged").hasValue(1);

      Files.writeString(override, "# Mine, version 2\n\nBe brief.\n");
      watch.check();
      assertThat(changes).as("edited").hasValue(2);

      Files.delete(override);
      watch.check();
      assertThat(changes).as("deleted: the bundled prompt is in effect again").hasValue(3);
    }
  }

  @Test
  void anOverridePresentAtTheStartIsNotAChange() throws Exception {
    Files.writeString(home.resolve(CalendarPrompt.FILE), "# Mine, version 1\n");
    AtomicInteger changes = new AtomicInteger();
    try (PromptWatch watch = PromptWatch.start(new CalendarPrompt(home), Duration.ofHours(1), changes::incrementAndGet)) {
      watch.check();
      assertThat(changes).hasValue(0);
    }
  }
}
