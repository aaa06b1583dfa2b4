package dev.roundhouse.drivers.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkspacePathsTest {
  @TempDir Path temp;
  Path root;
  Path outside;
  WorkspacePaths paths;

  @BeforeEach
  void setUp() throws Exception {
    root = Files.createDirectories(temp.resolve("repo"));
    outside = Files.createDirectories(temp.resolve("secrets"));
    Files.writeString(outside.resolve("passwords.txt"), "hunter2");
    Files.createDirectories(root.resolve("src"));
    Files.writeString(root.resolve("src/Main.java"), "class Main {}");
    paths = new WorkspacePaths(root);
  }

  @Test
  void relativeAndAbsolutePathsInsideAreResolved() throws Exception {
    Path real = root.toRealPath();
    assertThat(paths.resolve("src/Main.java")).isEqualTo(real.resolve("src/Main.java"));
    assertThat(paths.resolve("./src/../src/Main.java")).isEqualTo(real.resolve("src/Main.java"));
    assertThat(paths.resolve(root.resolve("src").toString())).isEqualTo(real.resolve("src"));
    assertThat(paths.resolve("new/folder/file.txt")).isEqualTo(real.resolve("new/folder/file.txt"));
    assertThat(paths.show(paths.resolve("."))).isEqualTo(".");
  }

  @Test
  void dotDotEscapesAreRefused() {
    assertThatThrownBy(() -> paths.resolve("../secrets/passwords.txt"))
        .isInstanceOf(WorkspacePaths.PathException.class)
        .hasMessageStartingWith("'../secrets/passwords.txt' is outside the working directory");
    assertThatThrownBy(() -> paths.resolve("src/../../secrets")).isInstanceOf(WorkspacePaths.PathException.class);
  }

  @Test
  void absolutePathsOutsideAreRefused() {
    assertThatThrownBy(() -> paths.resolve("/etc/passwd")).hasMessageStartingWith("'/etc/passwd' is outside the working directory");
  }

  @Test
  void aSymlinkPointingOutsideIsRefused() throws Exception {
    Files.createSymbolicLink(root.resolve("leak"), outside);

    assertThatThrownBy(() -> paths.resolve("leak/passwords.txt"))
        .hasMessageStartingWith("'leak/passwords.txt' leads outside the working directory through a symbolic link (to " + outside.toRealPath().resolve("passwords.txt") + ")");
    assertThatThrownBy(() -> paths.resolve("leak/new-file.txt")).isInstanceOf(WorkspacePaths.PathException.class);
  }

  @Test
  void aDanglingSymlinkPointingOutsideIsRefused() throws Exception {
    Files.createSymbolicLink(root.resolve("dangling"), outside.resolve("not-yet.txt"));

    assertThatThrownBy(() -> paths.resolve("dangling")).hasMessageContaining("leads outside the working directory through a symbolic link");
  }

  @Test
  void aSymlinkInsideIsFollowed() throws Exception {
    Files.createSymbolicLink(root.resolve("sources"), root.resolve("src"));

    assertThat(paths.resolve("sources/Main.java")).isEqualTo(root.toRealPath().resolve("src/Main.java"));
  }

  @Test
  void anEmptyPathIsNamed() {
    assertThatThrownBy(() -> paths.resolve(" ")).hasMessage("the path is empty; give one relative to the working directory");
  }
}
