package dev.roundhouse.lspbridge.acp;

import static org.assertj.core.api.Assertions.assertThat;

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
}
