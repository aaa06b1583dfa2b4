package dev.roundhouse.hub.ext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.EventDraft;
import dev.roundhouse.hub.model.ExtensionRecord;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.ExtensionRecords;
import dev.roundhouse.hub.spi.HubExtension;
import dev.roundhouse.hub.testing.EventRecorder;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A module's records live in the hub's store: they survive a restart and commit with their events. */
class ExtensionRecordsTest {
  @TempDir Path home;

  record Worktree(long task, String branch, String path) {}

  static final class Keeper implements HubExtension {
    final AtomicReference<ExtensionContext> context = new AtomicReference<>();

    @Override
    public String name() {
      return "keeper";
    }

    @Override
    public void start(ExtensionContext context) {
      this.context.set(context);
    }

    ExtensionRecords records() {
      return context.get().records("workspace");
    }
  }

  private static EventDraft event(String type) {
    return new EventDraft(type, Actor.USER, null, null, JsonNodeFactory.instance.objectNode().put("what", type));
  }

  @Test
  void recordsSurviveARestartAndListInKeyOrderByPrefix() {
    Keeper keeper = new Keeper();
    try (Hub hub = Hub.open(HubConfig.forHome(home), List.of(), List.of(keeper))) {
      keeper.records().put("task/2", new Worktree(2, "roundhouse/2-b", "/w/2"));
      keeper.records().put("task/1", new Worktree(1, "roundhouse/1-a", "/w/1"));
      keeper.records().put("review/1", new Worktree(9, "x", "y"));
      keeper.records().put("task/1", new Worktree(1, "roundhouse/1-renamed", "/w/1"));
    }
    Keeper again = new Keeper();
    try (Hub hub = Hub.open(HubConfig.forHome(home), List.of(), List.of(again))) {
      assertThat(again.records().get("task/1", Worktree.class)).contains(new Worktree(1, "roundhouse/1-renamed", "/w/1"));
      assertThat(again.records().list("task/")).extracting(ExtensionRecord::key).containsExactly("task/1", "task/2");
      assertThat(again.records().list("")).hasSize(3);
      assertThat(again.records().get("task/1").orElseThrow().value().get("branch").asText()).isEqualTo("roundhouse/1-renamed");
      assertThat(again.context.get().records("services").list("")).isEmpty();
    }
  }

  @Test
  void aPrefixWithLikeWildcardsMeansItself() {
    Keeper keeper = new Keeper();
    try (Hub hub = Hub.open(HubConfig.forHome(home), List.of(), List.of(keeper))) {
      keeper.records().put("a_b", 1);
      keeper.records().put("axb", 2);
      keeper.records().put("a%", 3);
      assertThat(keeper.records().list("a_")).extracting(ExtensionRecord::key).containsExactly("a_b");
      assertThat(keeper.records().list("a%")).extracting(ExtensionRecord::key).containsExactly("a%");
    }
  }

  @Test
  void aChangeCommitsWithItsEventsAndPutIfAbsentIsOnce() {
    Keeper keeper = new Keeper();
    try (Hub hub = Hub.open(HubConfig.forHome(home), List.of(), List.of(keeper)); EventRecorder events = new EventRecorder(hub)) {
      assertThat(keeper.records().putIfAbsent("firing/7", 1, event("schedule.fired"))).isTrue();
      assertThat(keeper.records().putIfAbsent("firing/7", 2, event("schedule.fired"))).isFalse();
      assertThat(keeper.records().get("firing/7", Integer.class)).contains(1);
      assertThat(keeper.records().delete("firing/7", event("schedule.forgotten"))).isTrue();
      assertThat(keeper.records().delete("firing/7", event("schedule.forgotten"))).isFalse();
      events.await("schedule.forgotten", java.time.Duration.ofSeconds(10), e -> e.type().equals("schedule.forgotten"));
      assertThat(events.types()).containsSubsequence("schedule.fired", "schedule.forgotten");
      assertThat(events.types().stream().filter(t -> t.startsWith("schedule.")).toList())
          .containsExactly("schedule.fired", "schedule.forgotten");
    }
  }

  @Test
  void badNamesAndOversizedValuesAreRefusedNamingWhatWasWrongAndNothingIsStored() {
    Keeper keeper = new Keeper();
    try (Hub hub = Hub.open(HubConfig.forHome(home), List.of(), List.of(keeper))) {
      assertThatThrownBy(() -> keeper.context.get().records("Work Space")).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("'Work Space'");
      assertThatThrownBy(() -> keeper.records().put("", 1)).isInstanceOf(RoundhouseException.InvalidInput.class)
          .hasMessageContaining("record key");
      assertThatThrownBy(() -> keeper.records().put("big", "x".repeat(1 << 20)))
          .isInstanceOf(RoundhouseException.InvalidInput.class).hasMessageContaining("workspace/big");
      assertThat(keeper.records().list("")).isEmpty();
    }
  }
}
