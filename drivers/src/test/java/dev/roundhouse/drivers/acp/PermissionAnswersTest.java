package dev.roundhouse.drivers.acp;

import static org.assertj.core.api.Assertions.assertThat;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.agentclientprotocol.sdk.spec.AcpSchema.PermissionOptionKind;
import dev.roundhouse.hub.spi.PermissionVerdict;
import java.util.List;
import org.junit.jupiter.api.Test;

class PermissionAnswersTest {
  static final List<AcpSchema.PermissionOption> GEMINI = List.of(
      new AcpSchema.PermissionOption("proceed_always", "Allow for this session", PermissionOptionKind.ALLOW_ALWAYS),
      new AcpSchema.PermissionOption("proceed_once", "Allow", PermissionOptionKind.ALLOW_ONCE),
      new AcpSchema.PermissionOption("cancel", "Reject", PermissionOptionKind.REJECT_ONCE));

  private static Object chosen(List<AcpSchema.PermissionOption> options, PermissionVerdict verdict) {
    return PermissionAnswers.choose(options, verdict).outcome();
  }

  @Test
  void anAllowanceAnswersTheOneTimeOptionSoTheAgentKeepsAsking() {
    assertThat(chosen(GEMINI, PermissionVerdict.allow("allowed by the user (remembered for this project)")))
        .isEqualTo(new AcpSchema.PermissionSelected("proceed_once"));
  }

  @Test
  void aDenialAnswersTheOneTimeRejection() {
    assertThat(chosen(GEMINI, PermissionVerdict.deny("denied by the user"))).isEqualTo(new AcpSchema.PermissionSelected("cancel"));
  }

  @Test
  void anAgentWithoutAOneTimeAllowanceGetsItsAlwaysOption() {
    List<AcpSchema.PermissionOption> options = List.of(
        new AcpSchema.PermissionOption("always", "Always", PermissionOptionKind.ALLOW_ALWAYS),
        new AcpSchema.PermissionOption("never", "Never", PermissionOptionKind.REJECT_ALWAYS));

    assertThat(chosen(options, PermissionVerdict.allow("ok"))).isEqualTo(new AcpSchema.PermissionSelected("always"));
  }

  @Test
  void aDenialWithoutAOneTimeRejectionIsCancelledNotRejectedForever() {
    List<AcpSchema.PermissionOption> options = List.of(
        new AcpSchema.PermissionOption("always", "Always", PermissionOptionKind.ALLOW_ALWAYS),
        new AcpSchema.PermissionOption("never", "Never", PermissionOptionKind.REJECT_ALWAYS),
        new AcpSchema.PermissionOption("odd", "Unknown kind", null));

    assertThat(chosen(options, PermissionVerdict.deny("no"))).isInstanceOf(AcpSchema.PermissionCancelled.class);
    assertThat(chosen(null, PermissionVerdict.allow("ok"))).isInstanceOf(AcpSchema.PermissionCancelled.class);
  }
}
