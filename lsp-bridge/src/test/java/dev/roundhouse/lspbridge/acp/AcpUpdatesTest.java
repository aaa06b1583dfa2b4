package dev.roundhouse.lspbridge.acp;

import static org.assertj.core.api.Assertions.assertThat;

import com.agentclientprotocol.sdk.spec.AcpSchema;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Json;
import org.junit.jupiter.api.Test;

class AcpUpdatesTest {
  @Test
  void aCalendarProposalIsOfferedWithApproveAndRejectAndCarriesItsChange() {
    JsonNode decision = Json.read("""
        {"id": 7, "kind": "calendar_proposal", "title": "Create: Work - Meeting - Standup",
         "message": "Mon 1 Dec 09:00-09:15 Europe/Berlin in work.ics", "options": ["approve", "reject"],
         "request": {"operation": "create", "before": null, "after": {"summary": "Work - Meeting - Standup"}}}
        """, JsonNode.class);

    ObjectNode params = AcpUpdates.permissionRequest("task-3", decision).orElseThrow();

    assertThat(params.path("options").findValuesAsText("optionId")).containsExactly("approve", "reject");
    assertThat(params.path("options").findValuesAsText("kind")).containsExactly("allow_once", "reject_once");
    assertThat(params.at("/toolCall/toolCallId").asText()).isEqualTo("decision-7");
    assertThat(params.at("/toolCall/rawInput/after/summary").asText()).isEqualTo("Work - Meeting - Standup");
    assertThat(params.at("/toolCall/content/0/content/text").asText()).contains("09:00-09:15");
    assertThat(params.at("/_meta/roundhouse/kind").asText()).isEqualTo("calendar_proposal");
  }

  @Test
  void aQuestionWithoutOptionsCannotBeAPermissionPrompt() {
    JsonNode question = Json.read("{\"id\": 8, \"kind\": \"question\", \"title\": \"Which port?\", \"options\": []}", JsonNode.class);
    assertThat(AcpUpdates.permissionRequest("task-3", question)).isEmpty();
  }

  @Test
  void theHubsNoticesAreThoughtsAndOtherEventsAreNot() {
    String question = text(AcpUpdates.notice("turn.question_refused", Json.read("{\"turn\": 1, \"question\": \"Which branch?\"}", JsonNode.class)).orElseThrow());
    assertThat(question).isEqualTo("Unattended run: the agent asked \"Which branch?\" and no one is there to answer.");
    String drift = text(AcpUpdates.notice("turn.drift_refused",
        Json.read("{\"files\": [\".claude/settings.json\", \"CLAUDE.md\"]}", JsonNode.class)).orElseThrow());
    assertThat(drift).isEqualTo("Unattended run: the agent's settings changed (.claude/settings.json, CLAUDE.md); the run was refused.");
    String trimmed = text(AcpUpdates.notice("turn.context_trimmed", Json.read("{\"text\": \"Left 3 exchanges out\"}", JsonNode.class)).orElseThrow());
    assertThat(trimmed).isEqualTo("Left 3 exchanges out");
    String silent = text(AcpUpdates.notice("turn.endpoint_silent", Json.read("{\"text\": \"Gemini CLI has had no answer\"}", JsonNode.class)).orElseThrow());
    assertThat(silent).isEqualTo("Gemini CLI has had no answer");
    assertThat(AcpUpdates.notice("turn.context_trimmed", Json.read("{}", JsonNode.class))).as("no text, no notice").isEmpty();
    assertThat(AcpUpdates.notice("turn.message", Json.read("{\"text\": \"hi\"}", JsonNode.class))).isEmpty();
  }

  private static String text(AcpSchema.SessionUpdate update) {
    assertThat(update).isInstanceOf(AcpSchema.AgentThoughtChunk.class);
    return ((AcpSchema.TextContent) ((AcpSchema.AgentThoughtChunk) update).content()).text();
  }
}
