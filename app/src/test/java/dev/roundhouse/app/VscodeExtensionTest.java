package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.testing.NodeProject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The VS Code extension ({@code vscode-extension/}) builds offline: TypeScript compiles, esbuild bundles
 * it with {@code vscode} external, its unit tests pass over the {@code vscode} stub (tree provider,
 * transcript model with paging and resume by seq, thoughts, plans and usage, the webview's script over a
 * fake DOM, decision prompts), {@code vsce package --no-dependencies} makes a .vsix, and the package test
 * finds in it the manifest, the bundled main, the README and every command and view the code registers.
 */
class VscodeExtensionTest {
  @Test
  void extensionCompilesPassesItsUnitTestsAndPackagesAVsixWithEverythingItContributes() throws Exception {
    NodeProject extension = NodeProject.installed("vscode-extension");
    Path vsix = extension.folder().resolve("roundhouse.vsix");
    Files.deleteIfExists(vsix);
    extension.assertRuns(List.of("npm", "run", "build"));
    extension.assertNodeTestsPass(List.of("node", "--require", "./out/test/stub/register.js", "--test", "out/test/unit/"), Map.of());
    String packaged = extension.assertRuns(List.of("npm", "run", "package"));
    assertThat(packaged).contains("Packaged");
    assertThat(vsix).isRegularFile();
    System.out.println("roundhouse.vsix: " + Files.size(vsix) + " bytes");
    extension.assertNodeTestsPass(List.of("node", "--test", "out/test/package/"), Map.of());
  }
}
