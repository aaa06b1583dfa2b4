package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.testing.Waits;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher's start cache ({@code scripts/start-cache.sh}), run for real: the launcher script and its scripts
 * copied into a scratch tree whose {@code app/target/roundhouse.jar} is a small jar made here (it prints its
 * version and the cache the launcher gave it), on this JVM's JDK. The first launch trains the cache in the
 * background; the next uses it; a changed jar gets a cache of its own (the old one is removed); and a cache file
 * that is garbage or truncated is passed over by the JVM without a word on stdout, the start going on.
 */
@ExtendWith(NoLeakedProcesses.class)
class LauncherStartCacheTest {
  private static final Duration TRAINING = Duration.ofSeconds(240);

  @TempDir Path scratch;

  @Test
  void cacheIsTrainedUsedRenewedWhenTheJarChangesAndACorruptOneDoesNotBreakAStart() throws Exception {
    Path root = copyLauncher(scratch.resolve("tree"));
    Path jar = root.resolve("app/target/roundhouse.jar");
    Path cacheDir = root.resolve("app/target/start-cache");
    buildJar(jar, "v1", Instant.now().minusSeconds(60));

    Launch first = launch(root, "greet");
    assertThat(first.exit()).as(first.err()).isZero();
    assertThat(first.out()).isEqualTo("hello v1 greet\ncache=none\n");
    assertThat(first.err()).contains("training");
    Path v1Cache = awaitTrained(cacheDir);

    Launch cached = launch(root, "greet");
    assertThat(cached.exit()).as(cached.err()).isZero();
    assertThat(cached.out()).isEqualTo("hello v1 greet\ncache=" + v1Cache + "\n");
    assertThat(cached.err()).contains("start cache: using " + v1Cache);

    buildJar(jar, "v2", Instant.now()); // rebuilt: new content, new time
    Launch changed = launch(root, "greet");
    assertThat(changed.exit()).as(changed.err()).isZero();
    assertThat(changed.out()).as("the old jar's cache is not used for the new jar").isEqualTo("hello v2 greet\ncache=none\n");
    Path v2Cache = awaitTrained(cacheDir);
    assertThat(v2Cache).isNotEqualTo(v1Cache);
    assertThat(v1Cache).as("the old jar's cache is removed once the new one is made").doesNotExist();

    Files.write(v2Cache, "this is not an AOT cache".repeat(1000).getBytes(StandardCharsets.UTF_8));
    Launch garbage = launch(root, "greet");
    assertThat(garbage.exit()).as(garbage.err()).isZero();
    assertThat(garbage.out()).as("no JVM message on stdout").isEqualTo("hello v2 greet\ncache=" + v2Cache + "\n");

    Path real = awaitTrainedAfterRemoving(cacheDir, v2Cache, root);
    byte[] whole = Files.readAllBytes(real);
    Files.write(real, java.util.Arrays.copyOf(whole, whole.length / 2));
    Launch truncated = launch(root, "greet");
    assertThat(truncated.exit()).as(truncated.err()).isZero();
    assertThat(truncated.out()).isEqualTo("hello v2 greet\ncache=" + real + "\n");

    Launch off = launch(root, Map.of("ROUNDHOUSE_START_CACHE", "off"), "greet");
    assertThat(off.out()).as("ROUNDHOUSE_START_CACHE=off starts without it").isEqualTo("hello v2 greet\ncache=none\n");
  }

  /** Removes a corrupted cache, launches once to train it again, and returns the new one. */
  private Path awaitTrainedAfterRemoving(Path cacheDir, Path cache, Path root) throws Exception {
    Files.delete(cache);
    Launch retrain = launch(root, "greet");
    assertThat(retrain.exit()).as(retrain.err()).isZero();
    return awaitTrained(cacheDir);
  }

  /** Waits for the background training to finish (its lock gone) and returns the one cache file. */
  private static Path awaitTrained(Path cacheDir) throws IOException {
    Waits.until("the start cache to be trained", TRAINING, () -> caches(cacheDir).size() == 1 && locks(cacheDir).isEmpty());
    return caches(cacheDir).getFirst();
  }

  private static List<Path> caches(Path dir) {
    return list(dir).stream().filter(path -> path.getFileName().toString().matches("roundhouse-\\d+\\.(aot|jsa)")).toList();
  }

  private static List<Path> locks(Path dir) {
    return list(dir).stream().filter(path -> path.getFileName().toString().endsWith(".training")).toList();
  }

  private static List<Path> list(Path dir) {
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.toList();
    } catch (IOException e) {
      return List.of();
    }
  }

  private record Launch(int exit, String out, String err) {}

  private Launch launch(Path root, String... args) throws Exception {
    return launch(root, Map.of(), args);
  }

  private Launch launch(Path root, Map<String, String> extra, String... args) throws Exception {
    List<String> command = Stream.concat(Stream.of(root.resolve("roundhouse").toString()), Stream.of(args)).toList();
    ProcessBuilder builder = new ProcessBuilder(command).directory(scratch.toFile());
    Map<String, String> env = builder.environment();
    env.keySet().removeIf(name -> name.startsWith("ROUNDHOUSE_"));
    env.put("ROUNDHOUSE_JAVA_HOME", System.getProperty("java.home"));
    env.put("ROUNDHOUSE_HOME", scratch.resolve("home").toString());
    env.put("ROUNDHOUSE_NO_BUILD", "1");
    env.put("ROUNDHOUSE_LAUNCHER_DEBUG", "1");
    env.putAll(extra);
    Path out = scratch.resolve("out.txt");
    Path err = scratch.resolve("err.txt");
    builder.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
    Process process = builder.start();
    assertThat(process.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).as("the launch ends").isTrue();
    return new Launch(process.exitValue(), Files.readString(out), Files.readString(err));
  }

  /** The launcher and the scripts it sources, in a tree of their own. */
  private static Path copyLauncher(Path root) throws IOException {
    Path source = repositoryRoot();
    Files.createDirectories(root.resolve("scripts"));
    Files.createDirectories(root.resolve("app/target"));
    for (String file : List.of("roundhouse", "scripts/find-jdk.sh", "scripts/start-cache.sh")) {
      Files.copy(source.resolve(file), root.resolve(file), StandardCopyOption.COPY_ATTRIBUTES);
    }
    return root;
  }

  private static Path repositoryRoot() {
    for (Path at = Path.of("").toAbsolutePath(); at != null; at = at.getParent()) {
      if (Files.isRegularFile(at.resolve("scripts/start-cache.sh"))) {
        return at;
      }
    }
    throw new AssertionError("no scripts/start-cache.sh above " + Path.of("").toAbsolutePath());
  }

  /** A jar whose main prints {@code hello <version> <args>} and the start cache it was given; {@code start-training} does a little work. */
  private void buildJar(Path jar, String version, Instant modified) throws IOException {
    Path src = Files.createDirectories(scratch.resolve("src-" + version));
    Path classes = Files.createDirectories(scratch.resolve("classes-" + version));
    Files.writeString(src.resolve("Hello.java"), """
        public class Hello {
          public static void main(String[] args) {
            if (args.length > 0 && args[0].equals("start-training")) {
              System.out.println(new java.util.TreeMap<>(System.getenv()).size() + String.join(",", java.util.List.of("a", "b")));
              return;
            }
            System.out.println("hello %s " + String.join(" ", args));
            System.out.println("cache=" + System.getProperty("roundhouse.startCache", "none"));
          }
        }
        """.formatted(version));
    int compiled = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), src.resolve("Hello.java").toString());
    assertThat(compiled).isZero();
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "Hello");
    Path written = scratch.resolve("next.jar");
    try (OutputStream file = Files.newOutputStream(written); JarOutputStream out = new JarOutputStream(file, manifest)) {
      out.putNextEntry(new JarEntry("Hello.class"));
      out.write(Files.readAllBytes(classes.resolve("Hello.class")));
      out.closeEntry();
    }
    Files.move(written, jar, StandardCopyOption.REPLACE_EXISTING);
    Files.setLastModifiedTime(jar, FileTime.from(modified));
  }
}
