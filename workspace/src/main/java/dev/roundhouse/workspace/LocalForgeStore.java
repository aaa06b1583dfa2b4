package dev.roundhouse.workspace;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The local forge's pull requests: a small JSON file beside the bare repository, rewritten whole through a
 * temporary file and an atomic move, so a crash leaves the old file or the new one.
 *
 * <p>Not thread-safe: the forge calls it under its lock.
 */
final class LocalForgeStore {

  /** One stored pull request; {@code createdAt} is an ISO-8601 instant. */
  record Entry(long number, String title, String body, String base, String head, String headCommit,
      PullRequestState state, String createdAt, String mergeCommit) {

    Entry with(PullRequestState newState, String newHead, String newMerge) {
      return new Entry(number, title, body, base, head, newHead, newState, createdAt, newMerge);
    }
  }

  record File(List<Entry> pullRequests) {}

  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private final Path path;

  LocalForgeStore(Path path) {
    this.path = path;
  }

  List<Entry> load() {
    if (!Files.exists(path)) {
      return new ArrayList<>();
    }
    try {
      return new ArrayList<>(MAPPER.readValue(path.toFile(), File.class).pullRequests());
    } catch (IOException e) {
      throw new WorkspaceException("could not read the local forge's pull requests from " + path + ": "
          + e.getMessage(), e);
    }
  }

  void save(List<Entry> entries) {
    try {
      Path temporary = Files.createTempFile(path.toAbsolutePath().getParent(), path.getFileName().toString(), ".tmp");
      MAPPER.writeValue(temporary.toFile(), new File(entries));
      Files.move(temporary, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new WorkspaceException("could not write the local forge's pull requests to " + path + ": "
          + e.getMessage(), e);
    }
  }

  Path path() {
    return path;
  }
}
