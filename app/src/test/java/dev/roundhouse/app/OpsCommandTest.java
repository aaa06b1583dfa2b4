package dev.roundhouse.app;

import static dev.roundhouse.app.CliTestSupport.context;
import static dev.roundhouse.app.CliTestSupport.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.roundhouse.hub.ops.OperationsReference;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code roundhouse ops} works without a hub: these run in an empty home. */
class OpsCommandTest {
  @TempDir Path emptyHome;

  @Test
  void markdownIsExactlyTheOperationsReference() {
    CliResult result = ok(context(emptyHome, emptyHome), "ops", "--markdown");

    assertThat(result.out()).isEqualTo(OperationsReference.markdown(Catalog.describe()));
  }

  @Test
  void textListsEveryOperationWithItsEffect() {
    CliResult result = ok(context(emptyHome, emptyHome), "ops");

    assertThat(result.out().lines().toList())
        .hasSize(Catalog.describe().size() + 1)
        .first().asString().matches("OPERATION +EFFECT +DESCRIPTION");
    assertThat(result.out())
        .containsPattern("(?m)^task_create +writes +File a task")
        .containsPattern("(?m)^task_delete +writes, destructive, idempotent +Delete a task")
        .containsPattern("(?m)^task_list +read-only, idempotent +List tasks");
  }

  @Test
  void jsonHasEveryDescriptorWithItsSchemas() {
    CliResult result = ok(context(emptyHome, emptyHome), "ops", "--json");

    assertThat(result.json().path("operations")).hasSize(Catalog.describe().size());
    assertThat(result.json().path("operations").get(0).has("input_schema")).isTrue();
  }
}
