package dev.roundhouse.lspbridge.lsp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@code docs/lsp-protocol.md} names every method the bridge advertises and every event type the hub stores. */
class LspProtocolDocTest {
  private static final Path DOCS = Path.of("..", "docs");

  private static String section(String text, String heading) {
    int start = text.indexOf(heading);
    assertThat(start).as("the section " + heading).isNotNegative();
    int end = text.indexOf("\n#", start + heading.length());
    return end < 0 ? text.substring(start) : text.substring(start, end);
  }

  @Test
  void everyAdvertisedMethodIsDocumented() throws IOException {
    String doc = Files.readString(DOCS.resolve("lsp-protocol.md"));
    String requests = section(doc, "## Requests (client → bridge)");
    String notifications = section(doc, "## Notifications (bridge → client)");
    RoundhouseLanguageServer.REQUESTS.forEach(name -> assertThat(requests).contains("| `roundhouse/" + name + "` |"));
    RoundhouseLanguageServer.NOTIFICATIONS.forEach(name -> assertThat(notifications).contains("| `roundhouse/" + name + "` |"));
  }

  @Test
  void everyStoredEventTypeIsAnEventKind() throws IOException {
    String types = section(Files.readString(DOCS.resolve("events.md")), "## Types");
    String kinds = section(Files.readString(DOCS.resolve("lsp-protocol.md")), "### Event kinds");
    List<String> stored = new ArrayList<>();
    Matcher row = Pattern.compile("(?m)^\\| (`[a-z_]+\\.[a-z_]+`(?: / `[a-z_]+\\.[a-z_]+`)*) \\|(.*)$").matcher(types);
    while (row.find()) {
      if (!row.group(2).contains("**transient**")) {
        Matcher type = Pattern.compile("`([a-z_.]+)`").matcher(row.group(1));
        while (type.find()) {
          stored.add(type.group(1));
        }
      }
    }
    assertThat(stored).contains("task.created", "turn.ended", "decision.opened");
    stored.forEach(type -> assertThat(kinds).as("the event kinds in lsp-protocol.md").contains("`" + type + "`"));
  }
}
