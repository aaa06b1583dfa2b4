package dev.roundhouse.hub.turns;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.model.Project;
import dev.roundhouse.hub.model.Decision;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import dev.roundhouse.hub.model.Turn;
import dev.roundhouse.hub.spi.AgentDriver;

/**
 * The settings-drift check before every turn: a driver names the files that can change its agent's
 * permissions outside the hub's gate; their SHA-256 hashes are compared with the ones last adopted. A
 * first sighting is recorded silently; a change parks the turn on a decision (adopt or decline) before
 * the agent starts; an unattended run refuses ({@code turn.drift_refused}, then the turn fails).
 *
 * <p>Thread-safe: stateless beyond its parts.
 */
final class SettingsDrift {
  static final String ABSENT = "absent";
  private static final List<String> OPTIONS = List.of("adopt", "decline");

  private final RunnerParts parts;
  private final DecisionParking parking;

  SettingsDrift(RunnerParts parts, DecisionParking parking) {
    this.parts = parts;
    this.parking = parking;
  }

  /** Empty to go ahead; otherwise how the turn ends before the agent starts (declined, or failed when unattended). */
  Optional<TurnOutcome> check(ActiveTurn loop, Turn turn, Project project, AgentDriver driver) {
    List<Path> files = driver.settingsFiles(Path.of(project.path()));
    if (files.isEmpty()) {
      return Optional.empty();
    }
    Map<String, String> now = new LinkedHashMap<>();
    for (Path file : files) {
      now.put(file.toAbsolutePath().normalize().toString(), hash(file));
    }
    Map<String, String> adopted = parts.store().read(r -> r.runner().settingsHashes(project.id(), driver.id()));
    Map<String, String[]> changed = new LinkedHashMap<>();
    now.forEach((path, hash) -> {
      String before = adopted.get(path);
      if (before != null && !before.equals(hash)) {
        changed.put(path, new String[] {before, hash});
      }
    });
    if (changed.isEmpty()) {
      if (!adopted.keySet().containsAll(now.keySet())) {
        adopt(project, driver, now); // first sighting: recorded silently
      }
      return Optional.empty();
    }
    if (turn.unattended()) {
      parts.store().append(new RunnerEvent.DriftRefused(turn.id(), driver.id(), List.copyOf(changed.keySet()))
          .draft(Actor.agent(turn.taskId()), project.id(), turn.taskId()));
      return Optional.of(TurnOutcome.failed("refused: " + driver.id() + " settings changed outside the hub ("
          + String.join(", ", changed.keySet()) + ") and unattended runs refuse on drift"));
    }
    ObjectNode details = Json.mapper().createObjectNode();
    details.put("turn", turn.id());
    details.put("driver", driver.id());
    ArrayNode list = details.putArray("files");
    changed.forEach((path, hashes) -> list.addObject().put("path", path).put("before", hashes[0]).put("after", hashes[1]));
    Decision closed = parking.park(loop, turn.id(), project.id(), Decision.SETTINGS_DRIFT,
        driver.capabilities().displayName() + " settings changed outside Roundhouse: " + String.join(", ", changed.keySet()),
        details, OPTIONS, decision -> null);
    if (closed.status().equals(Decision.ANSWERED) && closed.answer().equals("adopt")) {
      adopt(project, driver, now);
      return Optional.empty();
    }
    return Optional.of(TurnOutcome.declined("declined: the changed settings were not adopted"
        + (closed.status().equals(Decision.EXPIRED) ? " (" + closed.message() + ")" : "")));
  }

  private void adopt(Project project, AgentDriver driver, Map<String, String> hashes) {
    parts.store().write(w -> {
      hashes.forEach((path, hash) -> w.runner().putSettingsHash(project.id(), driver.id(), path, hash, w.now()));
      return null;
    });
  }

  static String hash(Path file) {
    if (!Files.isRegularFile(file)) {
      return ABSENT;
    }
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
      return HexFormat.of().formatHex(digest);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the settings file " + file, e);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
