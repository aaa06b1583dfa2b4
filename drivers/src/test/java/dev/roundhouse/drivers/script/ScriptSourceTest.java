package dev.roundhouse.drivers.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ScriptSourceTest {

  @Test
  void aJsonObjectWithStepsIsTheScript() {
    Script script = ScriptSource.forMessage("  {\"steps\": [{\"message\": \"hi\"}]}\n");

    assertThat(script.steps()).containsExactly(new Step.Message("hi"));
  }

  @Test
  void scriptColonNamePlaysABundledScript() {
    Script script = ScriptSource.forMessage("script:demo");

    assertThat(script.steps()).anySatisfy(step -> assertThat(step).isInstanceOf(Step.Tool.class));
  }

  @Test
  void everyBundledScriptParses() {
    for (String name : ScriptSource.BUNDLED) {
      assertThat(ScriptSource.bundled(name).steps()).as(name).isNotEmpty();
    }
  }

  @Test
  void anUnknownBundledScriptNamesTheOnesThereAre() {
    assertThatThrownBy(() -> ScriptSource.forMessage("script:demos"))
        .isInstanceOf(InvalidScriptException.class)
        .hasMessage("no bundled script 'demos' (bundled scripts: demo)");
    assertThatThrownBy(() -> ScriptSource.forMessage("script:../etc/passwd"))
        .isInstanceOf(InvalidScriptException.class)
        .hasMessage("'script:../etc/passwd' does not name a bundled script (bundled scripts: demo)");
  }

  @Test
  void plainTextIsEchoedAWordAtATime() {
    Script script = ScriptSource.forMessage("fix the  build");

    assertThat(script.steps())
        .startsWith(new Step.Text("You said: "), new Step.Text("fix "), new Step.Text("the  "), new Step.Text("build"));
    assertThat(script.steps().getLast()).isInstanceOf(Step.Usage.class);
  }

  @Test
  void aLongMessageIsEchoedWhole() {
    String message = "word ".repeat(500).strip();
    Script script = ScriptSource.forMessage(message);

    String echoed =
        script.steps().stream()
            .filter(Step.Text.class::isInstance)
            .map(step -> ((Step.Text) step).text())
            .reduce("", String::concat);
    assertThat(echoed).isEqualTo("You said: " + message);
    assertThat(script.steps()).hasSizeLessThan(100);
  }

  @Test
  void jsonWithoutStepsIsEchoed() {
    assertThat(ScriptSource.forMessage("{\"hello\": 1}").steps()).startsWith(new Step.Text("You said: "));
    assertThat(ScriptSource.forMessage("{ not json at all").steps()).startsWith(new Step.Text("You said: "));
  }

  @Test
  void brokenJsonThatMeantToBeAScriptFailsInsteadOfEchoing() {
    assertThatThrownBy(() -> ScriptSource.forMessage("{\"steps\": [{\"text\": \"a\"}"))
        .isInstanceOf(InvalidScriptException.class)
        .hasMessageStartingWith("the script is not valid JSON");
  }

  @Test
  void anEmptyMessageIsEchoedAsNothing() {
    assertThat(ScriptSource.forMessage("  ").steps()).startsWith(new Step.Text("You said nothing."));
  }
}
