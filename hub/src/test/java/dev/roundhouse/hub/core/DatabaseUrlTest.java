package dev.roundhouse.hub.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatabaseUrlTest {
  @TempDir Path dir;

  @Test
  void aPostgresqlUrlBecomesAJdbcUrlWithItsUserAndPasswordApart() {
    DatabaseUrl url = DatabaseUrl.parse("postgresql://rh:s%40cret@db.internal:6432/board?sslmode=require", Map.of());
    assertThat(url.jdbcUrl()).isEqualTo("jdbc:postgresql://db.internal:6432/board?sslmode=require");
    assertThat(url.user()).isEqualTo("rh");
    assertThat(url.password()).isEqualTo("s@cret");
  }

  @Test
  void theOtherSpellingsAreAccepted() {
    assertThat(DatabaseUrl.parse("postgres://db/board", Map.of()).jdbcUrl()).isEqualTo("jdbc:postgresql://db/board");
    assertThat(DatabaseUrl.parse("jdbc:postgresql://db:5432/board", Map.of()).jdbcUrl())
        .isEqualTo("jdbc:postgresql://db:5432/board");
    assertThat(DatabaseUrl.parse("  postgresql://db/board  ", Map.of()).user()).isNull();
  }

  @Test
  void thePasswordNeverShowsInTheTextOfTheUrl() {
    DatabaseUrl url = DatabaseUrl.parse("postgresql://rh:hunter2@db/board", Map.of());
    assertThat(url.toString()).isEqualTo(url.redacted()).isEqualTo("postgresql://rh@db/board").doesNotContain("hunter2");
  }

  @Test
  void aPasswordTheUrlLacksComesFromTheEnvironmentThenAFile() throws Exception {
    assertThat(DatabaseUrl.parse("postgresql://rh@db/board", Map.of("ROUNDHOUSE_DATABASE_PASSWORD", "direct")).password())
        .isEqualTo("direct");
    Path file = dir.resolve("secret");
    Files.writeString(file, "from-file\nignored second line\n");
    assertThat(DatabaseUrl.parse("postgresql://rh@db/board", Map.of("ROUNDHOUSE_DATABASE_PASSWORD_FILE", file.toString()))
        .password()).isEqualTo("from-file");
    assertThat(DatabaseUrl.parse("postgresql://rh:inline@db/board", Map.of("ROUNDHOUSE_DATABASE_PASSWORD", "direct")).password())
        .isEqualTo("inline");
    assertThat(DatabaseUrl.parse("postgresql://rh@db/board", Map.of()).password()).isNull();
  }

  @Test
  void whatIsWrongWithABadUrlIsNamed() {
    assertThatThrownBy(() -> DatabaseUrl.parse("mysql://db/board", Map.of()))
        .isInstanceOf(RoundhouseException.class).hasMessageContaining("postgresql://").hasMessageContaining("'mysql:'");
    assertThatThrownBy(() -> DatabaseUrl.parse("postgresql:///board", Map.of())).hasMessageContaining("no host");
    assertThatThrownBy(() -> DatabaseUrl.parse("postgresql://db:5432", Map.of())).hasMessageContaining("no database");
    assertThatThrownBy(() -> DatabaseUrl.parse("postgresql://rh@db/board",
        Map.of("ROUNDHOUSE_DATABASE_PASSWORD_FILE", dir.resolve("missing").toString())))
        .hasMessageContaining("ROUNDHOUSE_DATABASE_PASSWORD_FILE");
  }
}
