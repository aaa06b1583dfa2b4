package dev.roundhouse.workspace;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.eclipse.jgit.lib.ObjectId;
import java.util.Locale;
import java.util.function.UnaryOperator;

/**
 * A forge on a bare repository: {@code create} pushes the head branch there (never forced) and records the pull
 * request in {@code <bare>.prs.json}; {@code merge} lands it on the bare repository's base (fast-forward, else
 * a merge commit made without a checkout). Its merged heads are what reclaim takes as proof.
 *
 * <p>Thread-safe: one lock guards the JSON file and the bare repository's refs; the lock is held across git
 * child processes on the bare repository, never across a caller's code.
 */
final class RealLocalForge implements LocalForge {
  private final Path bare;
  private final GitCli git;
  private final MergeTree mergeTree;
  private final Clock clock;
  private final LocalForgeStore store;
  private final ReentrantLock lock = new ReentrantLock();

  RealLocalForge(Path bare, GitCli git, MergeTree mergeTree, Clock clock) {
    this.bare = bare.toAbsolutePath().normalize();
    this.git = git;
    this.mergeTree = mergeTree;
    this.clock = clock;
    this.store = new LocalForgeStore(this.bare.resolveSibling(this.bare.getFileName() + ".prs.json"));
  }

  @Override
  public PullRequest create(PullRequestDraft draft) {
    requireBare();
    Path repository = Path.of(draft.repository());
    GitResult pushed = git.run(repository, git.fetchTimeout, Map.of(), List.of("push", "--quiet", bare.toString(),
        "refs/heads/" + draft.head() + ":refs/heads/" + draft.head()));
    if (!pushed.ok()) {
      throw new WorkspaceException("could not push " + draft.head() + " from repository " + repository
          + " to the local forge " + bare + ": " + pushed.why());
    }
    lock.lock();
    try {
      String head = tip(draft.head());
      List<LocalForgeStore.Entry> entries = store.load();
      long number = entries.stream().mapToLong(LocalForgeStore.Entry::number).max().orElse(0) + 1;
      LocalForgeStore.Entry entry = new LocalForgeStore.Entry(number, draft.title(), draft.body(), draft.base(),
          draft.head(), head, PullRequestState.OPEN, clock.instant().toString(), null);
      entries.add(entry);
      store.save(entries);
      return view(entry);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public PullRequest status(String repository, long number) {
    requireBare();
    lock.lock();
    try {
      LocalForgeStore.Entry entry = find(store.load(), number);
      if (entry.state() == PullRequestState.OPEN) {
        String head = tip(entry.head());
        entry = entry.with(PullRequestState.OPEN, head == null ? entry.headCommit() : head, null);
      }
      return view(entry);
    } finally {
      lock.unlock();
    }
  }

  @Override
  public PullRequest merge(long number) {
    return change(number, entry -> {
      String baseTip = tip(entry.base());
      String headTip = tip(entry.head());
      if (baseTip == null || headTip == null) {
        throw new WorkspaceException("pull request #" + number + " cannot be merged: branch " + (baseTip == null
            ? entry.base() : entry.head()) + " is missing in the local forge " + bare);
      }
      ObjectId base = ObjectId.fromString(baseTip);
      ObjectId head = ObjectId.fromString(headTip);
      ObjectId target = head;
      if (ancestor(headTip, baseTip)) {
        target = base;
      } else if (!ancestor(baseTip, headTip)) {
        MergeTree.Outcome merged = mergeTree.merge(bare, base, head);
        if (!merged.conflicts().isEmpty()) {
          throw new WorkspaceException("pull request #" + number + " conflicts with " + entry.base()
              + " in the local forge " + bare + " (" + Checkouts.sample(merged.conflicts()) + ")");
        }
        target = mergeTree.commit(bare, merged.tree(), "Merge pull request #" + number + " from " + entry.head(),
            base, head);
      }
      git.ok(bare, "update-ref", "refs/heads/" + entry.base(), target.name(), baseTip);
      return entry.with(PullRequestState.MERGED, headTip, target.name());
    });
  }

  @Override
  public PullRequest close(long number) {
    return change(number, entry -> entry.with(PullRequestState.CLOSED, entry.headCommit(), null));
  }

  private PullRequest change(long number, UnaryOperator<LocalForgeStore.Entry> update) {
    requireBare();
    lock.lock();
    try {
      List<LocalForgeStore.Entry> entries = store.load();
      LocalForgeStore.Entry entry = find(entries, number);
      if (entry.state() != PullRequestState.OPEN) {
        throw new WorkspaceException("pull request #" + number + " of the local forge " + bare + " is already "
            + entry.state().name().toLowerCase(Locale.ROOT));
      }
      LocalForgeStore.Entry changed = update.apply(entry);
      entries.set(entries.indexOf(entry), changed);
      store.save(entries);
      return view(changed);
    } finally {
      lock.unlock();
    }
  }

  private LocalForgeStore.Entry find(List<LocalForgeStore.Entry> entries, long number) {
    return entries.stream().filter(entry -> entry.number() == number).findFirst()
        .orElseThrow(() -> new WorkspaceException("the local forge " + bare + " has no pull request #" + number));
  }

  private String tip(String branch) {
    GitResult result = git.run(bare, "rev-parse", "--verify", "--quiet", "refs/heads/" + branch);
    return result.ok() ? result.stdout().strip() : null;
  }

  private boolean ancestor(String ancestor, String descendant) {
    GitResult result = git.run(bare, "merge-base", "--is-ancestor", ancestor, descendant);
    if (result.exitCode() > 1) {
      throw GitCli.failure(bare, List.of("merge-base", "--is-ancestor"), result);
    }
    return result.ok();
  }

  private void requireBare() {
    if (!Files.isDirectory(bare) || !Files.exists(bare.resolve("HEAD"))) {
      throw new WorkspaceException("the local forge's repository " + bare + " is missing; create it with git init"
          + " --bare " + bare + " or configure another forge");
    }
  }

  private PullRequest view(LocalForgeStore.Entry entry) {
    return new PullRequest(entry.number(), store.path().toUri() + "#" + entry.number(), entry.title(), entry.base(),
        entry.head(), entry.headCommit(), entry.state(), List.of());
  }
}
