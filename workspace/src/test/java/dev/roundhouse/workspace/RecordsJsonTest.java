package dev.roundhouse.workspace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every record a future operation returns or takes survives a round trip through a hub-like mapper. */
class RecordsJsonTest {
  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .addModule(new JavaTimeModule())
      .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
      .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .build();

  static List<Object> records() {
    TaskWorktree worktree = new TaskWorktree("web", 7, "/src/web", "roundhouse/7-x", "/wt/web/7", "main", "abc");
    CommitInfo commit = new CommitInfo("abc", "ab", "A", "a@x", Instant.parse("2030-01-01T00:00:00Z"), "subject");
    return List.of(
        WorktreeRequest.of("web", "/src/web", 7, "x"),
        worktree,
        new EnsureResult(worktree, EnsureOutcome.REPAIRED, "/wt/web/7/src", List.of("a note")),
        new TaskDiff("m", "h", "main", "b", List.of(new FileChange("a", "a", ChangeKind.MODIFIED, false, 1, 2, true,
            List.of(new Hunk(1, 2, 1, 3, "@@ -1,2 +1,3 @@\n")))), 1, 2),
        new TaskCommits("m", 1, 0, List.of(commit)),
        new WorktreeStatus(true, "b", "h", false, List.of(new StatusEntry("a", FileState.UNTRACKED, false)), 1, 0),
        new MergeResult(MergeOutcome.CONFLICT, "main", "a", "a", List.of("x"), "conflict"),
        new Stranded(true, List.of("a"), List.of(commit), "why"),
        new ReclaimResult(ReclaimOutcome.KEPT, "why"),
        new SweepRequest(true, 7, List.of(new SweepCandidate(worktree, false, Instant.EPOCH, List.of("h")))),
        new SweepReport(true, List.of(new SweepItem(7, "b", "/p", SweepAction.WOULD_REMOVE, "why"))),
        new BaseRewrite(true, "a", "origin/main", "b", "why"),
        new PullRequestDraft("/src/web", "t", "b", "main", "h"),
        new PullRequest(1, "u", "t", "main", "h", "c", PullRequestState.OPEN, List.of(new CheckRun("n", "s", null))));
  }

  @ParameterizedTest
  @MethodSource("records")
  void recordSurvivesAJsonRoundTrip(Object value) throws Exception {
    String json = MAPPER.writeValueAsString(value);

    assertThat(MAPPER.readValue(json, value.getClass())).isEqualTo(value);
    assertThat(json).doesNotContain("\"empty\"");
  }
}
