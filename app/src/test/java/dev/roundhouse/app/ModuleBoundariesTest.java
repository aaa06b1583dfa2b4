package dev.roundhouse.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The rules between modules (docs/architecture.md, "Modules"), checked on the compiled classes of every
 * module: no package cycle anywhere, and each module reaches into the hub only through what the hub
 * exports to it. Capability modules and drivers get the SPI; faces get the API; the hub client gets the API
 * records; nothing outside the hub touches its engines (store, board, decisions, turns, agent tools).
 */
class ModuleBoundariesTest {
  private static final String HUB = "dev.roundhouse.hub";

  /** What a driver or a capability module may use: the SPI and what it is made of. */
  private static final Set<String> SPI = Set.of("core", "model", "process", "events", "ops", "spi", "api");

  /** What the hub client may use: the API records only (the operations' wire records and what they are made of). */
  private static final Set<String> CLIENT = Set.of("core", "model", "events", "ops", "api");

  /** What a face may use: the SPI's packages, the hub itself, its HTTP server, the extensions' resources and the metrics it adds its sessions to. */
  private static final Set<String> API = union(SPI, Set.of("", "ext", "http", "metrics"));

  private static final Map<String, Set<String>> ALLOWED = Map.of(
      "dev.roundhouse.drivers", SPI,
      "dev.roundhouse.calendaragent", SPI,
      "dev.roundhouse.workspace", SPI,
      "dev.roundhouse.services", SPI,
      "dev.roundhouse.mcpserver", API,
      "dev.roundhouse.lspbridge", API,
      "dev.roundhouse.hubclient", CLIENT,
      // the `roundhouse bench` command runs the hub's own append benchmark
      "dev.roundhouse.app", union(API, Set.of("bench")));

  private static final java.util.regex.Pattern TEST_JAR = java.util.regex.Pattern.compile(".*-tests\\.jar!.*");

  private static JavaClasses all;

  @BeforeAll
  static void importEveryModule() {
    all = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.matches(TEST_JAR)) // the hub's and the drivers' test fixtures
        .importPackages("dev.roundhouse");
  }

  @Test
  void noPackageCycleInAnyModule() {
    SlicesRuleDefinition.slices().matching("dev.roundhouse.(**)").should().beFreeOfCycles().check(all);
  }

  @Test
  void everyModuleUsesOnlyWhatTheHubExportsToIt() {
    assertThat(all.stream().map(JavaClass::getPackageName).filter(p -> p.startsWith("dev.roundhouse.drivers"))).isNotEmpty();
    Set<String> wrong = new TreeSet<>();
    for (JavaClass from : all) {
      if (from.getPackageName().equals(HUB) || from.getPackageName().startsWith(HUB + ".")) {
        continue;
      }
      Set<String> allowed = ALLOWED.entrySet().stream()
          .filter(e -> from.getPackageName().equals(e.getKey()) || from.getPackageName().startsWith(e.getKey() + "."))
          .map(Map.Entry::getValue).findFirst()
          .orElseThrow(() -> new AssertionError("no rule for " + from.getPackageName() + ": add its module to ALLOWED"));
      for (Dependency dependency : from.getDirectDependenciesFromSelf()) {
        String to = dependency.getTargetClass().getPackageName();
        if (to.equals(HUB) || to.startsWith(HUB + ".")) {
          String rung = to.equals(HUB) ? "" : to.substring(HUB.length() + 1);
          boolean engines = dependency.getTargetClass().getName().equals(HUB + ".InProcessHub") && !from.getPackageName().startsWith("dev.roundhouse.app");
          if (!allowed.contains(rung) || engines) {
            wrong.add(dependency.getDescription());
          }
        }
      }
    }
    assertThat(wrong).as("uses of the hub's internals from other modules").isEmpty();
  }

  private static Set<String> union(Set<String> a, Set<String> b) {
    Set<String> both = new java.util.HashSet<>(a);
    both.addAll(b);
    return Set.copyOf(both);
  }
}
