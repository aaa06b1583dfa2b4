package dev.roundhouse.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The hub's packages form a ladder (docs/architecture.md, "Packages of hub"): each rung may use the rungs
 * below it and never one above, so no two packages depend on each other.
 */
class PackageLadderTest {
  private static JavaClasses hub;

  @BeforeAll
  static void importHub() {
    hub = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.roundhouse.hub");
  }

  @Test
  void noPackageCycle() {
    slices().matching("dev.roundhouse.(**)").should().beFreeOfCycles().check(hub);
  }

  /** Bottom to top; packages on one rung (events, ops) are independent of each other. */
  private static final List<List<String>> RUNGS = List.of(
      List.of("core"),
      List.of("model", "process"),
      List.of("events", "ops"),
      List.of("store"),
      List.of("spi"),
      List.of("api"),
      List.of("ext", "decisions"),
      List.of("board"),
      List.of("turns"),
      List.of("agenttools"),
      List.of("schedules", "retention", "metrics"),
      List.of(""),
      List.of("http", "bench"));

  @Test
  void eachRungUsesOnlyTheRungsBelow() {
    Map<String, Integer> rung = new HashMap<>();
    for (int i = 0; i < RUNGS.size(); i++) {
      for (String name : RUNGS.get(i)) {
        rung.put(name.isEmpty() ? "dev.roundhouse.hub" : "dev.roundhouse.hub." + name, i);
      }
    }
    Set<String> wrong = new TreeSet<>();
    for (JavaClass from : hub) {
      Integer fromRung = rung.get(from.getPackageName());
      assertThat(fromRung).as("the rung of package %s (add it to RUNGS and docs/architecture.md)", from.getPackageName())
          .isNotNull();
      for (Dependency dependency : from.getDirectDependenciesFromSelf()) {
        String to = dependency.getTargetClass().getPackageName();
        Integer toRung = rung.get(to);
        boolean sameRungOtherPackage = toRung != null && toRung.equals(fromRung) && !to.equals(from.getPackageName());
        if (toRung != null && (toRung > fromRung || sameRungOtherPackage)) {
          wrong.add(from.getPackageName() + " -> " + to + ": " + dependency.getDescription());
        }
      }
    }
    assertThat(wrong).as("dependencies up the ladder").isEmpty();
  }
}
