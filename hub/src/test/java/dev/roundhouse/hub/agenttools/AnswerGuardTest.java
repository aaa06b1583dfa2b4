package dev.roundhouse.hub.agenttools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.api.AgentToolsApi.TagsAnswer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The one guard: exceptions, timeouts and empty answers all become sentences naming the tool. */
class AnswerGuardTest {

  @Test
  void aRefusalKeepsItsKindAndIsPrefixedWithTheTool() {
    var guarded = AnswerGuard.<Object, TagsAnswer>guard("list_tags", Duration.ofSeconds(5), (actor, in) -> {
      throw new RoundhouseException.NotFound("no project 'x'");
    });
    assertThatThrownBy(() -> guarded.apply(Actor.USER, null))
        .isInstanceOf(RoundhouseException.NotFound.class).hasMessage("list_tags: no project 'x'");
  }

  @Test
  void anUnexpectedExceptionNamesTheToolAndALogReference() {
    var guarded = AnswerGuard.<Object, TagsAnswer>guard("list_tags", null, (actor, in) -> {
      throw new IllegalStateException("boom");
    });
    assertThatThrownBy(() -> guarded.apply(Actor.USER, null))
        .isInstanceOf(RoundhouseException.class)
        .hasMessageStartingWith("list_tags failed unexpectedly").hasMessageContaining("reference")
        .hasMessageNotContaining("boom");
  }

  @Test
  void aHandlerThatHangsBecomesATimeoutSentence() {
    CountDownLatch never = new CountDownLatch(1);
    var guarded = AnswerGuard.<Object, TagsAnswer>guard("list_tags", Duration.ofMillis(100), (actor, in) -> {
      try {
        never.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return new TagsAnswer("late", List.of());
    });
    try {
      assertThatThrownBy(() -> guarded.apply(Actor.USER, null))
          .isInstanceOf(RoundhouseException.class)
          .satisfies(e -> assertThat(((RoundhouseException) e).code()).isEqualTo("timeout"))
          .hasMessageStartingWith("list_tags did not answer within 100 ms");
    } finally {
      never.countDown();
    }
  }

  @Test
  void anEmptyAnswerBecomesASentence() {
    var nothing = AnswerGuard.<Object, TagsAnswer>guard("list_tags", null, (actor, in) -> null);
    assertThatThrownBy(() -> nothing.apply(Actor.USER, null)).hasMessageStartingWith("list_tags came back with an empty answer");
    var blank = AnswerGuard.<Object, TagsAnswer>guard("list_tags", null, (actor, in) -> new TagsAnswer(" ", List.of()));
    assertThatThrownBy(() -> blank.apply(Actor.USER, null)).hasMessageStartingWith("list_tags came back with an empty answer");
  }
}
