package dev.roundhouse.workspace;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the repository a project path belongs to, with {@code git rev-parse}, so that whatever git itself
 * accepts (a linked worktree as the project path, a {@code .git} file, {@code safe.directory}) is accepted.
 *
 * <p>Stateless; thread-safe.
 */
final class RepoLocator {
  private final GitCli git;

  RepoLocator(GitCli git) {
    this.git = git;
  }

  Repo locate(String projectPath) {
    Path path = Path.of(projectPath).toAbsolutePath().normalize();
    if (!Files.isDirectory(path)) {
      throw new WorkspaceException("project folder " + path + " does not exist or is not a folder");
    }
    GitResult result = git.run(path, "rev-parse", "--path-format=absolute", "--is-bare-repository",
        "--show-toplevel", "--git-common-dir");
    if (!result.ok()) {
      if (result.stderr().contains("not a git repository")) {
        throw new NotARepositoryException(path.toString());
      }
      throw new WorkspaceException("git rev-parse failed in repository " + path + ": " + result.why());
    }
    String[] lines = result.stdout().strip().split("\n");
    if (lines[0].equals("true") || lines.length < 3) {
      throw new WorkspaceException(path + " is a bare repository; a project needs a checkout to cut worktrees from");
    }
    try {
      Path top = Path.of(lines[1]).toRealPath();
      Path common = Path.of(lines[2]).toRealPath();
      Path sub = top.relativize(path.toRealPath());
      // A project path that is itself a linked worktree: work from the main checkout.
      Path mainTop = common.getFileName().toString().equals(".git") ? common.getParent() : top;
      return new Repo(mainTop, common, sub);
    } catch (IOException e) {
      throw new WorkspaceException("could not resolve the git folders of repository " + path + ": " + e.getMessage(), e);
    }
  }

  boolean isRepository(String projectPath) {
    try {
      locate(projectPath);
      return true;
    } catch (NotARepositoryException e) {
      return false;
    }
  }
}
