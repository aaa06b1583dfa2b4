package dev.roundhouse.hub.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The environment for the interactive shells tests start (hub terminals): this JVM's, with {@code HOME} an empty
 * folder of the module's {@code target}, so a shell reads none of this machine's startup files. Here
 * {@code ~/.bashrc} runs {@code pyenv init}, which waits 60 s for a lock that a shell hung up mid-rehash (as the
 * terminal tests do) leaves behind. Stateless.
 */
public final class ShellEnvironment {
  private ShellEnvironment() {}

  public static Map<String, String> withEmptyHome() {
    Path home = Path.of("target", "test-home").toAbsolutePath();
    try {
      Files.createDirectories(home);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<String, String> env = new HashMap<>(System.getenv());
    env.put("HOME", home.toString());
    return env;
  }
}
