package dev.roundhouse.hub.decisions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.roundhouse.hub.core.Actor;
import dev.roundhouse.hub.core.RoundhouseException;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import dev.roundhouse.hub.model.PermissionRule;

class PermissionRulesTest {
  private static PermissionRule rule(String tool, String prefix) {
    return new PermissionRule(1, 1, tool, prefix, Actor.USER, Instant.EPOCH);
  }

  @ParameterizedTest(name = "''{0}'' is refused: {1}")
  @CsvSource(delimiter = '|', textBlock = """
      ''                      | would allow every command
      '   '                   | would allow every command
      sudo make install       | runs other commands
      bash -c                 | runs other commands
      env FOO=1 npm           | runs other commands
      xargs rm                | runs other commands
      python                  | alone runs any code
      node                    | alone runs any code
      git                     | alone would allow all of its subcommands
      npm                     | alone would allow all of its subcommands
      npm test; rm -rf ~      | shell operators
      npm test && curl x      | shell operators
      echo $(id)              | shell operators
      cat a > b               | shell operators
      """)
  void tooBroadPrefixesAreRefusedWithTheReason(String prefix, String reason) {
    assertThatThrownBy(() -> PermissionRules.checkShellPrefix(prefix))
        .isInstanceOf(RoundhouseException.InvalidInput.class)
        .hasMessageContaining(reason);
  }

  @ParameterizedTest(name = "''{0}'' is kept as ''{1}''")
  @CsvSource(delimiter = '|', textBlock = """
      npm test              | npm test
      '  git   status  '    | git status
      python scripts/x.py   | python scripts/x.py
      ls                    | ls
      """)
  void reasonablePrefixesAreNormalised(String prefix, String kept) {
    assertThat(PermissionRules.checkShellPrefix(prefix)).isEqualTo(kept);
  }

  @ParameterizedTest(name = "rule ''{0}'' on ''{1}'' -> {2}")
  @CsvSource(delimiter = '#', textBlock = """
      npm test   # npm test                        # true
      npm test   # npm test -- --watch             # true
      npm test   # npm testify                     # false
      npm test   # npm                             # false
      npm test   # npm test; rm -rf ~              # false
      npm test   # npm test | sh                   # false
      npm test   # npm test `id`                   # false
      git status # git  status   --short           # true
      """)
  void aShellRuleAllowsWordPrefixesWithoutOperators(String prefix, String command, boolean allowed) {
    assertThat(PermissionRules.allows(rule("Bash", prefix), "Bash", command)).isEqualTo(allowed);
  }

  @ParameterizedTest(name = "rule for {0} on {1} -> {2}")
  @CsvSource({
    "Edit, Edit, true",
    "Edit, Write, false",
  })
  void aNonShellRuleAllowsItsToolOnly(String ruleTool, String tool, boolean allowed) {
    assertThat(PermissionRules.allows(rule(ruleTool, ""), tool, null)).isEqualTo(allowed);
    assertThat(PermissionRules.allows(rule(ruleTool, ""), tool, "anything")).isFalse();
  }
}
