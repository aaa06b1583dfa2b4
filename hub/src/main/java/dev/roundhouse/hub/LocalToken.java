package dev.roundhouse.hub;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local API token: 256 random bits in {@code $ROUNDHOUSE_HOME/token}, created with mode 0600 (never
 * readable by other users, not even for an instant). Clients on this machine read it to attach to the hub.
 *
 * <p>Stateless; thread-safe.
 */
public final class LocalToken {
  private static final Logger log = LoggerFactory.getLogger(LocalToken.class);
  private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

  private LocalToken() {}

  /** Reads the token, creating it first if there is none; tightens loose permissions. */
  public static String loadOrCreate(Path file, SecureRandom random) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      if (!Files.exists(file)) {
        byte[] bytes = new byte[32];
        random.nextBytes(bytes);
        String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
        try {
          Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
          Files.writeString(file, token + "\n", StandardCharsets.UTF_8);
          return token;
        } catch (FileAlreadyExistsException raced) {
          // Another process created it first: use theirs.
        }
      }
      Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file);
      if (!permissions.equals(OWNER_ONLY)) {
        log.warn("{} had mode {}; setting it to rw-------", file, PosixFilePermissions.toString(permissions));
        Files.setPosixFilePermissions(file, OWNER_ONLY);
      }
      return read(file);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or create the token " + file, e);
    }
  }

  /** Reads an existing token. */
  public static String read(Path file) throws IOException {
    String token = Files.readString(file, StandardCharsets.UTF_8).strip();
    if (token.isEmpty()) {
      throw new IOException(file + " is empty; delete it and restart the hub to create a new token");
    }
    return token;
  }
}
