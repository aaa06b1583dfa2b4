package dev.roundhouse.workspace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * GitHub through the {@code gh} CLI: pushes the head branch to {@code origin}, then {@code gh pr create} and
 * {@code gh pr view --json}. Before either, it checks that gh is installed and signed in, and says exactly
 * what to do when it is not.
 *
 * <p>Stateless apart from its configuration; thread-safe.
 */
final class GhForge implements Forge {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String VIEW_FIELDS = "number,url,title,baseRefName,headRefName,headRefOid,state,statusCheckRollup";

  private final String gh;
  private final GitCli git;

  GhForge(String gh, GitCli git) {
    this.gh = gh;
    this.git = git;
  }

  @Override
  public PullRequest create(PullRequestDraft draft) {
    Path repository = Path.of(draft.repository());
    requireReady(repository);
    GitResult pushed = git.run(repository, git.fetchTimeout, Map.of(), List.of("push", "--quiet", "origin",
        "refs/heads/" + draft.head() + ":refs/heads/" + draft.head()));
    if (!pushed.ok()) {
      throw new WorkspaceException("could not push " + draft.head() + " from repository " + repository
          + " to origin: " + pushed.why());
    }
    GitResult created = gh(repository, "pr", "create", "--title", draft.title(), "--body", draft.body(),
        "--base", draft.base(), "--head", draft.head());
    String url = created.stdout().strip();
    String number = url.substring(url.lastIndexOf('/') + 1);
    if (!number.matches("\\d+")) {
      throw new WorkspaceException("gh pr create in repository " + repository + " did not print a pull request URL: "
          + created.why());
    }
    return status(draft.repository(), Long.parseLong(number));
  }

  @Override
  public PullRequest status(String repository, long number) {
    Path directory = Path.of(repository);
    requireReady(directory);
    GitResult viewed = gh(directory, "pr", "view", Long.toString(number), "--json", VIEW_FIELDS);
    try {
      return parse(MAPPER.readTree(viewed.stdout()));
    } catch (IOException | RuntimeException e) {
      throw new WorkspaceException("could not read pull request #" + number + " of repository " + repository
          + " from gh: " + e.getMessage(), e);
    }
  }

  static PullRequest parse(JsonNode pr) {
    List<CheckRun> checks = new ArrayList<>();
    for (JsonNode check : pr.path("statusCheckRollup")) {
      if (check.has("context")) {
        checks.add(new CheckRun(check.path("context").asText(), "completed", lower(check.path("state").asText(null))));
      } else {
        checks.add(new CheckRun(check.path("name").asText(), lower(check.path("status").asText(null)),
            lower(check.path("conclusion").asText(null))));
      }
    }
    return new PullRequest(pr.path("number").asLong(), pr.path("url").asText(), pr.path("title").asText(),
        pr.path("baseRefName").asText(), pr.path("headRefName").asText(), pr.path("headRefOid").asText(),
        PullRequestState.valueOf(pr.path("state").asText("OPEN").toUpperCase(Locale.ROOT)), checks);
  }

  private void requireReady(Path repository) {
    GitResult version;
    try {
      version = git.exec(gh, repository, git.commandTimeout, Map.of(), List.of("--version"));
    } catch (WorkspaceException e) {
      throw new WorkspaceException("the GitHub CLI (" + gh + ") is not installed or not on PATH, so pull requests of"
          + " repository " + repository + " cannot be created; install it from https://cli.github.com and run"
          + " gh auth login, or configure the local forge", e);
    }
    if (!version.ok()) {
      throw new WorkspaceException("the GitHub CLI (" + gh + ") does not run: " + version.why());
    }
    GitResult auth = git.exec(gh, repository, git.commandTimeout, Map.of(), List.of("auth", "status"));
    if (!auth.ok()) {
      throw new WorkspaceException("the GitHub CLI is not signed in, so pull requests of repository " + repository
          + " cannot be created; run gh auth login (" + auth.why() + ")");
    }
  }

  private GitResult gh(Path repository, String... args) {
    GitResult result = git.exec(gh, repository, git.fetchTimeout, Map.of("GH_PROMPT_DISABLED", "1"), List.of(args));
    if (!result.ok()) {
      throw new WorkspaceException(GitCli.describe(gh, List.of(args)) + " failed in repository " + repository
          + ": " + result.why());
    }
    return result;
  }

  private static String lower(String text) {
    return text == null || text.isEmpty() ? null : text.toLowerCase(Locale.ROOT);
  }
}
