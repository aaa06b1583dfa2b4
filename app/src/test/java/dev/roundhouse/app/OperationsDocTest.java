package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.ops.OperationsReference;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/operations.md is generated; it must match what this build generates. */
class OperationsDocTest {

  @Test
  void docsOperationsMdIsUpToDate() throws IOException {
    Path doc = repositoryRoot().resolve("docs/operations.md");
    String expected = OperationsReference.markdown(Catalog.describe());

    assertThat(doc).as("%s exists; create it with: ./roundhouse ops --markdown > docs/operations.md", doc).isRegularFile();
    assertThat(Files.readString(doc, StandardCharsets.UTF_8))
        .as("docs/operations.md is out of date with the operations; regenerate it with: ./roundhouse ops --markdown > docs/operations.md")
        .isEqualTo(expected);
  }

  /** Surefire runs with the module (app/) as working directory; the repository root is its parent. */
  private static Path repositoryRoot() {
    Path cwd = Path.of("").toAbsolutePath();
    for (Path dir = cwd; dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("mvnw")) && Files.isDirectory(dir.resolve("app"))) {
        return dir;
      }
    }
    throw new AssertionError("no repository root (a folder with mvnw and app/) above " + cwd);
  }
}
