package dev.roundhouse.drivers.acp;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.agentclientprotocol.sdk.spec.AcpSchema.PermissionOptionKind;
import dev.roundhouse.hub.spi.PermissionVerdict;
import java.util.List;

/**
 * Picks the answer to {@code session/request_permission} from the options the agent offered, by their kind
 * (never by id: Gemini's are {@code proceed_once}, {@code proceed_always}, {@code cancel}, another agent's
 * differ). An allowance answers the agent's one-time option: the hub's gate remembers "always" itself (a
 * project rule, which asks nobody next time), so the agent keeps asking and every use stays on the hub's
 * record; only an agent that offers no one-time option gets its "always" one. A denial answers the
 * one-time rejection, or {@code cancelled} when there is none (an "always" rejection would stop the agent
 * asking, so a later allowance could never reach it). Stateless; thread-safe.
 */
final class PermissionAnswers {
  private PermissionAnswers() {}

  static AcpSchema.RequestPermissionResponse choose(List<AcpSchema.PermissionOption> options, PermissionVerdict verdict) {
    List<PermissionOptionKind> wanted = verdict.allowed()
        ? List.of(PermissionOptionKind.ALLOW_ONCE, PermissionOptionKind.ALLOW_ALWAYS)
        : List.of(PermissionOptionKind.REJECT_ONCE);
    for (PermissionOptionKind kind : wanted) {
      for (AcpSchema.PermissionOption option : options == null ? List.<AcpSchema.PermissionOption>of() : options) {
        if (option != null && option.kind() == kind && option.optionId() != null) {
          return new AcpSchema.RequestPermissionResponse(new AcpSchema.PermissionSelected(option.optionId()));
        }
      }
    }
    return AcpConnection.CANCELLED;
  }
}
