package dev.roundhouse.workspace.hub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import dev.roundhouse.hub.events.Event;
import dev.roundhouse.hub.spi.ExtensionResource;
import dev.roundhouse.hub.spi.TurnRequest;
import dev.roundhouse.workspace.Workspace;
import dev.roundhouse.workspace.WorkspaceConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.LongStream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The workspace extension in a real hub, over real repositories: every test goes through the operations. */
class WorkspaceExtensionTest {
  private WorkspaceHub w;

  @BeforeEach
  void open() {
    w = new WorkspaceHub();
    w.addProject("web", w.project);
  }

  @AfterEach
  void close() {
    w.close();
  }

  @Test
  void twentyTasksStartedAtOnceEachRunInTheirOwnWorktreeAndWritingTheSamePathDoesNotCollide() {
    List<Long> tasks = LongStream.rangeClosed(1, 20).mapToObj(i -> w.task("web", "Task number " + i)).toList();

    tasks.forEach(task -> w.start(task, "shared.txt=from task " + task + "\ncommit: task " + task));

    Set<Path> folders = new HashSet<>();
    for (long task : tasks) {
      assertThat(w.ended(task).path("status").asText()).as("task %s: %s", task, w.ended(task)).isEqualTo("completed");
      TurnRequest request = w.request(task);
      Path folder = request.workingDirectory();
      folders.add(folder);
      assertThat(folder).startsWith(w.worktrees.resolve("web"));
      JsonNode workspace = w.op("task_workspace", "task", task);
      String branch = workspace.path("worktree").path("branch").asText();
      assertThat(branch).isEqualTo("roundhouse/" + task + "-task-number-" + (task));
      assertThat(request.environment()).containsEntry("ROUNDHOUSE_BRANCH", branch);
      assertThat(w.git(w.project, "show", branch + ":shared.txt")).isEqualTo("from task " + task);
      assertThat(workspace.path("status").path("clean").asBoolean()).isTrue();
      assertThat(w.op("task_get", "task", task).path("branch").asText()).isEqualTo(branch);
    }
    assertThat(folders).hasSize(20);
    assertThat(w.project.resolve("shared.txt")).doesNotExist();
    Set<Long> created = new HashSet<>();
    while (created.size() < 20) {
      created.add(w.events.await("workspace.created", Duration.ofSeconds(10), e -> e.type().equals("workspace.created")).taskId());
    }
    assertThat(created).containsExactlyInAnyOrderElementsOf(tasks);
  }

  @Test
  void taskDiffMatchesGitDiffOfTheSameRangeWithUncommittedChangesMarked() {
    long task = w.task("web", "Diff");
    w.turn(task, "src/app.txt=one\\nTWO\\nthree\\nfour\\n\nnew.txt=a\\nb\\n\n-README.md\ncommit: work");
    assertThat(w.turn(task, "src/app.txt=one\\nTWO\\nthree\\nfour\\nfive\\n").path("status").asText()).isEqualTo("completed");

    JsonNode diff = w.op("task_diff", "task", task, "hunks", true).path("diff");
    Path worktree = w.request(task).workingDirectory();
    Map<String, String> expected = new java.util.TreeMap<>();
    for (String line : w.git(worktree, "diff", "--numstat", diff.path("merge_base").asText()).lines().toList()) {
      String[] parts = line.split("\t");
      expected.put(parts[2], parts[0] + "/" + parts[1]);
    }
    Map<String, String> actual = new java.util.TreeMap<>();
    diff.path("files").forEach(file -> actual.put(file.path("path").asText(), file.path("added").asInt() + "/" + file.path("removed").asInt()));
    assertThat(actual).isEqualTo(expected).containsKeys("src/app.txt", "new.txt", "README.md");
    JsonNode app = file(diff, "src/app.txt");
    assertThat(app.path("uncommitted").asBoolean()).isTrue();
    assertThat(app.path("hunks").get(0).path("text").asText()).contains("+TWO").contains("+five");
    assertThat(file(diff, "new.txt").path("uncommitted").asBoolean()).isFalse();
    assertThat(file(diff, "README.md").path("kind").asText()).isEqualTo("DELETED");
    assertThat(w.op("task_diff", "task", task, "path", "new.txt").path("diff").path("files")).hasSize(1);
    assertThat(w.op("task_commits", "task", task).path("commits").path("commits").get(0).path("subject").asText()).isEqualTo("work");
  }

  @Test
  void mergeFastForwardsThenWritesAMergeCommitThenReportsAConflictAndAsksTheAgent() {
    long a = w.task("web", "A");
    long b = w.task("web", "B");
    long c = w.task("web", "C");
    long d = w.task("web", "D");
    w.turn(a, "a.txt=a\ncommit: a");
    w.turn(b, "b.txt=b\ncommit: b");
    w.turn(c, "README.md=from c\ncommit: c");
    w.turn(d, "README.md=from d\ncommit: d");

    JsonNode fastForward = w.op("task_merge", "task", a).path("result");
    assertThat(fastForward.path("outcome").asText()).isEqualTo("FAST_FORWARD");
    assertThat(w.git(w.project, "rev-parse", "main")).isEqualTo(w.git(w.project, "rev-parse", "roundhouse/" + a + "-a"));
    assertThat(w.project.resolve("a.txt")).hasContent("a");

    assertThat(w.op("task_merge", "task", b).path("result").path("outcome").asText()).isEqualTo("MERGE_COMMIT");
    assertThat(w.git(w.project, "rev-parse", "main^2")).isEqualTo(w.git(w.project, "rev-parse", "roundhouse/" + b + "-b"));
    assertThat(w.op("task_merge", "task", c).path("result").path("outcome").asText()).isEqualTo("MERGE_COMMIT");

    String main = w.git(w.project, "rev-parse", "main");
    JsonNode conflict = w.op("task_merge", "task", d, "ask_agent", true);
    assertThat(conflict.path("result").path("outcome").asText()).isEqualTo("CONFLICT");
    assertThat(conflict.path("result").path("conflicts")).extracting(JsonNode::asText).containsExactly("README.md");
    assertThat(conflict.path("asked_agent").asBoolean()).isTrue();
    assertThat(w.git(w.project, "rev-parse", "main")).isEqualTo(main);
    assertThat(w.project.resolve(".git/MERGE_HEAD")).doesNotExist();
    assertThat(w.git(w.project, "status", "--porcelain")).isEmpty();
    w.ended(d);
    assertThat(w.request(d).message()).contains("conflicts in README.md");
    w.saw("workspace.merged", "workspace.landed", "workspace.conflict");
    assertThat(w.op("task_workspace", "task", a).path("landed").asText()).isEqualTo("merge");
    assertThatThrownBy(() -> w.op(Actor.agent(a), "task_merge", "task", a)).isInstanceOf(RoundhouseException.Forbidden.class);
  }

  @Test
  void anAgentCannotMarkItsTaskDoneWhileWorkIsStrandedButTheUserCan() {
    long dirty = w.task("web", "Dirty");
    long unmerged = w.task("web", "Unmerged");
    w.turn(dirty, "wip.txt=half done");
    w.turn(unmerged, "x.txt=x\ncommit: x");

    assertThatThrownBy(() -> w.op(Actor.agent(dirty), "task_update", "task", dirty, "status", "done"))
        .isInstanceOf(RoundhouseException.Conflict.class).hasMessageContaining("wip.txt");
    String shortId = w.git(w.project, "rev-parse", "--short", "roundhouse/" + unmerged + "-unmerged");
    assertThatThrownBy(() -> w.op(Actor.agent(unmerged), "update_task", "task", unmerged, "status", "done"))
        .hasMessageContaining(shortId);

    assertThat(w.op("task_update", "task", dirty, "status", "done").path("status").asText()).isEqualTo("done");
    assertThat(w.op(Actor.agent(unmerged), "task_update", "task", unmerged, "status", "review").path("status").asText()).isEqualTo("review");
    w.op("task_merge", "task", unmerged);
    assertThat(w.op(Actor.agent(unmerged), "task_update", "task", unmerged, "status", "done").path("status").asText()).isEqualTo("done");
  }

  @Test
  void reclaimKeepsUnlandedWorkAndRemovesItOnlyAfterItsLocalPullRequestMerged() {
    long task = w.task("web", "Feature");
    w.turn(task, "feature.txt=f\ncommit: feature");
    JsonNode pr = w.op("create_pr", "task", task, "body", "Adds the feature");
    assertThat(pr.path("pull_request").path("number").asLong()).isEqualTo(1);
    assertThat(pr.path("pull_request").path("state").asText()).isEqualTo("OPEN");
    Path folder = Path.of(w.op("task_workspace", "task", task).path("worktree").path("path").asText());

    assertThat(w.op("task_reclaim", "task", task).path("result").path("outcome").asText()).isEqualTo("KEPT");
    assertThat(folder).isDirectory();

    Workspace.create(WorkspaceConfig.defaults(w.worktrees).withGit("git", WorkspaceHub.ISOLATED), Clock.systemUTC())
        .localForge(w.forge).merge(1);
    JsonNode polled = w.op("task_pull_requests", "task", task, "refresh", true).path("pull_requests").get(0);
    assertThat(polled.path("pull_request").path("state").asText()).isEqualTo("MERGED");
    w.saw("pr.created", "pr.merged", "workspace.landed");
    assertThat(w.op("task_workspace", "task", task).path("landed").asText()).isEqualTo("pull_request");

    JsonNode reclaimed = w.op("task_reclaim", "task", task).path("result");
    assertThat(reclaimed.path("outcome").asText()).as(reclaimed.toString()).isEqualTo("RECLAIMED");
    assertThat(folder).doesNotExist();
    assertThat(w.git(w.project, "branch", "--list", "roundhouse/*")).isEmpty();
    assertThat(w.op("task_workspace", "task", task).path("note").asText()).contains("has no workspace yet");
  }

  @Test
  void aProjectThatIsNotARepositoryRunsInItsOwnFolderWithANote() throws Exception {
    Path plain = Files.createDirectories(w.root.resolve("plain"));
    w.addProject("plain", plain);
    long task = w.task("plain", "No git");

    assertThat(w.turn(task, "notes.txt=n").path("status").asText()).isEqualTo("completed");

    assertThat(w.request(task).workingDirectory()).isEqualTo(plain);
    assertThat(plain.resolve("notes.txt")).exists();
    Event placed = w.events.await("turn.placed", task);
    assertThat(placed.data().path("notes").get(0).asText()).contains("is not a git repository");
    assertThat(w.op("task_workspace", "task", task, "ensure", true).path("note").asText()).contains("is not inside a git repository");
  }

  @Test
  void aWorktreeDeletedByHandIsRepairedAndADeletedBranchFailsTheTurnNamingIt() throws Exception {
    long repaired = w.task("web", "Repaired");
    long broken = w.task("web", "Broken");
    w.turn(repaired, "r.txt=r\ncommit: r");
    w.turn(broken, "b.txt=b\ncommit: b");

    Path folder = w.request(repaired).workingDirectory();
    try (var paths = Files.walk(folder)) {
      paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    }
    assertThat(w.turn(repaired, "r2.txt=r2").path("status").asText()).isEqualTo("completed");
    assertThat(folder.resolve("r.txt")).hasContent("r");
    w.saw("workspace.repaired");

    String branch = "roundhouse/" + broken + "-broken";
    w.git(w.project, "worktree", "remove", "--force", w.request(broken).workingDirectory().toString());
    w.git(w.project, "branch", "-D", branch);
    JsonNode failed = w.turn(broken, "b2.txt=b2");
    assertThat(failed.path("status").asText()).isEqualTo("failed");
    assertThat(failed.path("end_reason").asText()).contains("branch " + branch).contains("was deleted");
  }

  @Test
  void oneTaskReviewsAnothersDiffWithCommentsAnchoredToItsFiles() {
    long author = w.task("web", "Author");
    long reviewer = w.task("web", "Reviewer");
    w.turn(author, "a.txt=a\ncommit: a");

    assertThatThrownBy(() -> w.op(Actor.agent(author), "submit_review", "task", author, "verdict", "approve"))
        .isInstanceOf(RoundhouseException.Forbidden.class);
    assertThatThrownBy(() -> w.op(Actor.agent(reviewer), "submit_review", "task", author, "verdict", "request_changes",
        "comments", List.of(Map.of("path", "nope.txt", "line", 1, "body", "?"))))
        .isInstanceOf(RoundhouseException.InvalidInput.class).hasMessageContaining("a.txt");

    JsonNode review = w.op(Actor.agent(reviewer), "submit_review", "task", author, "verdict", "request_changes",
        "summary", "Needs a test", "comments", List.of(Map.of("path", "a.txt", "line", 1, "body", "Say why")));
    assertThat(review.path("reviewer").asText()).isEqualTo("agent:" + reviewer);
    w.op("submit_review", "task", author, "verdict", "approve");
    JsonNode reviews = w.op("get_review", "task", author);
    assertThat(reviews.path("reviews")).hasSize(2);
    assertThat(reviews.path("state").asText()).isEqualTo("changes_requested");
    w.saw("review.submitted");

    w.op(Actor.agent(reviewer), "withdraw_review", "task", author);
    assertThat(w.op("get_review", "task", author).path("state").asText()).isEqualTo("approved");
    w.saw("review.withdrawn");
  }

  @Test
  void theDiffResourceShowsTheDiffAndItsSubscribersHearWhenATurnEnds() {
    long task = w.task("web", "Resource");
    w.turn(task, "r.txt=r\ncommit: r");
    String uri = "roundhouse://tasks/" + task + "/diff";

    var found = w.hub.hub().resources().find(uri).orElseThrow();
    ExtensionResource.Contents contents = found.resource().reader().read(Actor.USER, uri, found.variables());
    assertThat(contents.text()).contains("\"path\":\"r.txt\"").contains("@@");

    w.turn(task, "r.txt=rr");
    w.events.await("resource.updated", Duration.ofSeconds(10),
        e -> StreamSupport.stream(e.data().path("uris").spliterator(), false).anyMatch(u -> u.asText().equals(uri)));
  }

  @Test
  void aNewBaseBranchIsWhereNewWorkspacesAreCutAndEveryRefusalIsASentence() {
    w.git(w.project, "branch", "develop");
    w.op("set_base_branch", "project", "web", "branch", "develop");
    long task = w.task("web", "On develop");

    JsonNode workspace = w.op("task_workspace", "task", task, "ensure", true);

    assertThat(workspace.path("outcome").asText()).isEqualTo("created");
    assertThat(workspace.path("worktree").path("base_branch").asText()).isEqualTo("develop");
    assertThatThrownBy(() -> w.op("task_diff", "task", 999)).isInstanceOf(RoundhouseException.NotFound.class);
    long none = w.task("web", "No turn yet");
    assertThatThrownBy(() -> w.op("task_diff", "task", none)).hasMessageContaining("has no workspace yet");
    assertThat(w.op("report_base_rewrite", "task", task).path("flagged").asBoolean()).isFalse();
    assertThat(w.op("workspace_sweep").path("report").path("dry_run").asBoolean()).isTrue();
  }

  private static JsonNode file(JsonNode diff, String path) {
    for (JsonNode file : diff.path("files")) {
      if (file.path("path").asText().equals(path)) {
        return file;
      }
    }
    throw new AssertionError("no " + path + " in " + diff);
  }
}
