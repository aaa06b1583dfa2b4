package dev.roundhouse.hub.ext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.Hub;
import dev.roundhouse.hub.HubConfig;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.model.Decision;
import dev.roundhouse.hub.ops.Operation;
import dev.roundhouse.hub.ops.OperationAnnotations;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.roundhouse.hub.spi.ExtensionContext;
import dev.roundhouse.hub.spi.HubExtension;
import dev.roundhouse.hub.spi.DecisionDesk;

/** An extension stages proposals as decisions; only an approval commits, exactly once. */
class HubExtensionTest {
  @TempDir Path home;

  record Stage(@JsonProperty(required = true) String title) {}

  record Staged(long decision) {}

  /** A stand-in for the calendar agent: proposals committed to a list, idempotently by decision id. */
  static final class ProposalsExtension implements HubExtension {
    final List<String> committed = new CopyOnWriteArrayList<>();
    final AtomicBoolean failNextCommit = new AtomicBoolean();
    final AtomicInteger commitCalls = new AtomicInteger();
    final AtomicBoolean closed = new AtomicBoolean();

    @Override
    public String name() {
      return "proposals";
    }

    @Override
    public void start(ExtensionContext context) {
      DecisionDesk desk = context.decisions();
      context.operations().register(Operation.of(
          "thing_stage", "Stage a thing; nothing changes until a human approves.", Stage.class, Staged.class,
          OperationAnnotations.CREATE,
          (actor, in) -> new Staged(desk.open(actor, "thing_proposal", null, null, "Add " + in.title(),
              Json.tree(Map.of("title", in.title())), List.of("approve", "reject")).id())));
      desk.onAnswer("thing_proposal", (decision, answer, message, actor) -> {
        commitCalls.incrementAndGet();
        if (!answer.equals("approve")) {
          return;
        }
        if (failNextCommit.getAndSet(false)) {
          throw new RoundhouseException("commit_failed", "the calendar server did not answer; try again");
        }
        String id = "thing-" + decision.id();
        if (!committed.contains(id)) {
          committed.add(id);
        }
      });
    }

    @Override
    public void close() {
      closed.set(true);
    }
  }

  @Test
  void anExtensionsProposalIsADecisionThatOnlyAnApprovalCommitsOnce() {
    ProposalsExtension extension = new ProposalsExtension();
    try (Hub hub = Hub.open(HubConfig.forHome(home), List.of(), List.of(extension))) {
      assertThat(hub.operations().describe("thing_stage")).isPresent();
      long id = hub.operations().invoke("thing_stage", Actor.agent(3), Json.tree(Map.of("title", "dentist"))).get("decision").asLong();
      JsonNode pending = hub.operations().invoke("decision_list", Actor.USER, null);
      assertThat(pending.get("pending").asInt()).isEqualTo(1);
      assertThat(pending.at("/decisions/0/kind").asText()).isEqualTo("thing_proposal");
      assertThat(extension.committed).isEmpty();

      extension.failNextCommit.set(true);
      assertThatThrownBy(() -> answer(hub, id, "approve"))
          .isInstanceOf(RoundhouseException.class)
          .hasMessageContaining("try again");
      assertThat(hub.decisions().get(id).orElseThrow().status()).isEqualTo(Decision.PENDING);

      answer(hub, id, "approve");
      assertThat(extension.committed).containsExactly("thing-" + id);
      assertThatThrownBy(() -> answer(hub, id, "approve"))
          .isInstanceOf(RoundhouseException.Conflict.class)
          .hasMessageContaining("already answered");
      assertThat(extension.committed).containsExactly("thing-" + id);
      assertThat(extension.commitCalls).hasValue(2);

      long rejected = hub.operations().invoke("thing_stage", Actor.agent(3), Json.tree(Map.of("title", "gym"))).get("decision").asLong();
      answer(hub, rejected, "reject");
      assertThat(extension.committed).hasSize(1);
      assertThatThrownBy(() -> answer(hub, rejected + 1000, "approve")).hasMessageContaining("no decision");
    }
    assertThat(extension.closed).isTrue();
  }

  private static JsonNode answer(Hub hub, long decision, String answer) {
    return hub.operations().invoke("decision_answer", Actor.USER, Json.tree(Map.of("decision", decision, "answer", answer)));
  }
}
