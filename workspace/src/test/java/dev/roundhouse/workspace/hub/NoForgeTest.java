package dev.roundhouse.workspace.hub;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.core.RoundhouseException;
import org.junit.jupiter.api.Test;

class NoForgeTest {

  @Test
  void createPrWithoutAForgeSaysExactlyWhatToConfigure() {
    try (WorkspaceHub w = new WorkspaceHub(settings -> settings.withForge(null))) {
      w.addProject("web", w.project);
      long task = w.task("web", "Feature");
      w.turn(task, "f.txt=f\ncommit: f");

      assertThatThrownBy(() -> w.op("create_pr", "task", task))
          .isInstanceOf(RoundhouseException.Conflict.class)
          .hasMessageContaining("ROUNDHOUSE_FORGE=gh")
          .hasMessageContaining("ROUNDHOUSE_FORGE=local:/path/to/bare.git");
    }
  }
}
