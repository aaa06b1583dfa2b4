package dev.roundhouse.workspace;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test a fresh {@link Sandbox} of real repositories and, afterwards, checks that no git child
 * process outlived the test.
 */
final class SandboxExtension implements ParameterResolver, AfterEachCallback {
  private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(SandboxExtension.class);

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == Sandbox.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context.getStore(NAMESPACE).getOrComputeIfAbsent("sandbox", key -> {
      try {
        Path root = Files.createTempDirectory("roundhouse-workspace-").toRealPath();
        return new Sandbox(root);
      } catch (java.io.IOException e) {
        throw new AssertionError(e);
      }
    }, Sandbox.class);
  }

  @Override
  public void afterEach(ExtensionContext context) throws Exception {
    Sandbox.assertNoChildProcesses();
    Sandbox sandbox = context.getStore(NAMESPACE).get("sandbox", Sandbox.class);
    if (sandbox != null) {
      try (var paths = Files.walk(sandbox.root)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
      }
    }
  }
}
