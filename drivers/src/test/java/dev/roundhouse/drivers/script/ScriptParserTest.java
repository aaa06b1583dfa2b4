package dev.roundhouse.drivers.script;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScriptParserTest {
  private static final String KINDS =
      "(expected one of text, message, thought, plan, tool, ask_user, usage, delay_ms, repeat, call_op, error, fail, hang, result)";

  @Test
  void parsesEveryStepKind() {
    Script script =
        ScriptParser.parse(
            """
            {"session": "s-1", "linger": true, "steps": [
              {"text": "Hello "},
              {"message": "complete"},
              {"tool": "Bash", "id": "t1", "input": {"command": "npm test"}, "command": "npm test",
               "description": "Run the tests", "ask": true, "output": ["a\\n", "b\\n"], "result": "ok",
               "error": false, "denied": [{"message": "not then"}]},
              {"ask_user": "Which database?", "options": ["postgres", "sqlite"]},
              {"usage": {"input": 100, "output": 20, "cost": 0.01, "estimated": true}},
              {"delay_ms": 200},
              {"repeat": 3, "steps": [{"text": "x"}]},
              {"call_op": "task_get", "input": {"task": 1}},
              {"error": "something broke"},
              {"fail": "gave up"},
              {"hang": true},
              {"result": "end_turn", "text": "done"}
            ]}
            """);

    assertThat(script.session()).isEqualTo("s-1");
    assertThat(script.linger()).isTrue();
    assertThat(script.steps())
        .containsExactly(
            new Step.Text("Hello "),
            new Step.Message("complete"),
            new Step.Tool(
                "t1",
                "Bash",
                object("command", "npm test"),
                "npm test",
                "Run the tests",
                true,
                List.of("a\n", "b\n"),
                "ok",
                false,
                List.of(new Step.Message("not then"))),
            new Step.AskUser("Which database?", List.of("postgres", "sqlite")),
            new Step.Usage(100, 20, 0.01, true),
            new Step.Delay(200),
            new Step.Repeat(3, List.of(new Step.Text("x"))),
            new Step.CallOp("task_get", JsonNodeFactory.instance.objectNode().put("task", 1)),
            new Step.Error("something broke"),
            new Step.Fail("gave up"),
            new Step.Hang(),
            new Step.Result("end_turn", "done"));
  }

  @Test
  void toolDefaultsAreEmptyInputNoAskNoOutputAndAnEmptyResult() {
    Script script = ScriptParser.parse("{\"steps\": [{\"tool\": \"Read\"}]}");

    assertThat(script.session()).isNull();
    assertThat(script.linger()).isNull();
    assertThat(script.steps())
        .containsExactly(
            new Step.Tool(
                null, "Read", JsonNodeFactory.instance.objectNode(), null, null, false, List.of(), "", false, List.of()));
  }

  @Test
  void toolTakesItsCommandFromTheInputWhenNotGiven() {
    Step.Tool tool = (Step.Tool) single("{\"tool\": \"Bash\", \"input\": {\"command\": \"ls -la\"}}");

    assertThat(tool.command()).isEqualTo("ls -la");
  }

  @Test
  void toolOutputMayBeOneString() {
    Step.Tool tool = (Step.Tool) single("{\"tool\": \"Bash\", \"output\": \"all of it\\n\"}");

    assertThat(tool.output()).containsExactly("all of it\n");
  }

  @Test
  void thoughtsAndPlansParseWithPlanDefaults() {
    assertThat(single("{\"thought\": \"hmm\"}")).isEqualTo(new Step.Thought("hmm"));
    assertThat(single("{\"plan\": [\"write it\", {\"content\": \"test it\", \"status\": \"completed\", \"priority\": \"low\"}]}"))
        .isEqualTo(new Step.Plan(List.of(
            new dev.roundhouse.hub.spi.TurnEvent.PlanEntry("write it", "pending", "medium"),
            new dev.roundhouse.hub.spi.TurnEvent.PlanEntry("test it", "completed", "low"))));
  }

  @Test
  void aPlanEntryWithAnUnknownStatusIsRefusedNamingTheChoices() {
    assertThatThrownBy(() -> ScriptParser.parse("{\"steps\": [{\"plan\": [{\"content\": \"x\", \"status\": \"done\"}]}]}"))
        .hasMessageContaining("status is one of [pending, in_progress, completed]");
    assertThatThrownBy(() -> ScriptParser.parse("{\"steps\": [{\"plan\": \"x\"}]}"))
        .hasMessageContaining("'plan' must be an array of entries");
  }

  @Test
  void usageFieldsAreOptionalAndCostMayBeLeftOut() {
    assertThat(single("{\"usage\": {\"input\": 7}}")).isEqualTo(new Step.Usage(7, 0, null, false));
  }

  @Test
  void aResultWithATextIsAResultAndAToolWithAResultIsATool() {
    assertThat(single("{\"result\": \"max_tokens\", \"text\": \"cut\"}")).isEqualTo(new Step.Result("max_tokens", "cut"));
    assertThat(single("{\"result\": \"fine\", \"tool\": \"Read\", \"error\": true}")).isInstanceOf(Step.Tool.class);
  }

  @Test
  void anEmptyStepListIsAScript() {
    assertThat(ScriptParser.parse("{\"steps\": []}").steps()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          {"steps": [{"text": "a"}, {"text": "b"}, {"tol": "Bash"}]}        | step 3: unknown step kind 'tol' KINDS
          {"steps": [{}]}                                                   | step 1: an empty step KINDS
          {"steps": [{"foo": 1, "bar": 2}]}                                 | step 1: no step kind among its fields 'foo', 'bar' KINDS
          {"steps": [{"text": "a", "message": "b"}]}                        | step 1: a step has one kind, but this one has 'text' and 'message'
          {"steps": [{"tool": "Bash", "comand": "ls"}]}                     | step 1: unknown field 'comand' in a tool step (expected id, input, command, description, ask, output, result, error, denied)
          {"steps": [{"text": "a", "delay": 5}]}                            | step 1: unknown field 'delay' in a text step (it takes no other field)
          {"steps": [{"text": 5}]}                                          | step 1: 'text' must be a string, not 5
          {"steps": [{"tool": ""}]}                                         | step 1: 'tool' must not be blank
          {"steps": [{"tool": "Bash", "input": "ls"}]}                      | step 1: 'input' must be a JSON object, not "ls"
          {"steps": [{"tool": "Bash", "ask": "yes"}]}                       | step 1: 'ask' must be true or false, not "yes"
          {"steps": [{"tool": "Bash", "output": ["a", 2]}]}                 | step 1: 'output' must be an array of strings, but element 2 is 2
          {"steps": [{"tool": "Bash", "denied": []}]}                       | step 1: 'denied' steps need "ask": true (only an asked call can be denied)
          {"steps": [{"tool": "Bash", "ask": true, "denied": [{"txt": "a"}]}]} | step 1.1: unknown step kind 'txt' KINDS
          {"steps": [{"ask_user": "Which?", "options": "a,b"}]}             | step 1: 'options' must be an array of strings, not "a,b"
          {"steps": [{"delay_ms": -5}]}                                     | step 1: 'delay_ms' must be a whole number from 0 to 3600000, not -5
          {"steps": [{"delay_ms": 1.5}]}                                    | step 1: 'delay_ms' must be a whole number from 0 to 3600000, not 1.5
          {"steps": [{"usage": 100}]}                                       | step 1: 'usage' must be an object like {"input": 100, "output": 20}, not 100
          {"steps": [{"usage": {"input": 1, "tokens": 2}}]}                 | step 1: unknown usage field 'tokens' (expected input, output, cost, estimated, context, window)
          {"steps": [{"usage": {"cost": "free"}}]}                          | step 1: 'usage.cost' must be a number of US dollars, 0 or more, not "free"
          {"steps": [{"repeat": 2}]}                                        | step 1: a repeat step needs a 'steps' array
          {"steps": [{"repeat": 2000000, "steps": []}]}                     | step 1: 'repeat' must be a whole number from 0 to 1000000, not 2000000
          {"steps": [{"text": "a"}, {"repeat": 2, "steps": [{"text": "b"}, {"hang": 1}]}]} | step 2.2: 'hang' must be true, not 1
          {"steps": [{"repeat": 1, "steps": {"text": "b"}}]}                | step 1: 'steps' must be an array of steps, not {"text":"b"}
          {"steps": [{"result": "end_turn"}, {"text": "late"}]}             | step 2: comes after a 'result' step, which ends the answer, so it would never play
          {"steps": ["hello"]}                                              | step 1: a step must be a JSON object, not "hello"
          {"steps": [{"call_op": "task_get", "input": [1]}]}                | step 1: 'input' must be a JSON object, not [1]
          {"steps": [{"fail": ""}]}                                         | step 1: 'fail' must not be blank
          {"steps": {"text": "a"}}                                          | the script's 'steps' must be an array of steps, not {"text":"a"}
          {"step": []}                                                      | unknown top-level field 'step' (expected session, linger, steps)
          {"linger": true}                                                  | the script has no 'steps' array
          {"linger": "yes", "steps": []}                                    | the script's 'linger' must be true or false, not "yes"
          {"session": 7, "steps": []}                                       | the script's 'session' must be a string, not 7
          [1, 2]                                                            | a script must be a JSON object with a 'steps' array, not [1,2]
          """)
  void malformedScriptsAreRefusedNamingWhatIsWrong(String json, String message) {
    assertThatThrownBy(() -> ScriptParser.parse(json))
        .isInstanceOf(InvalidScriptException.class)
        .hasMessage(message.replace("KINDS", KINDS));
  }

  @Test
  void invalidJsonNamesTheLineAndColumn() {
    assertThatThrownBy(() -> ScriptParser.parse("{\"steps\": [\n  {\"text\": \"a\",}\n]}"))
        .isInstanceOf(InvalidScriptException.class)
        .hasMessageStartingWith("the script is not valid JSON at line 2, column ");
  }

  @Test
  void duplicateKeysAreRefused() {
    assertThatThrownBy(() -> ScriptParser.parse("{\"steps\": [{\"text\": \"a\", \"text\": \"b\"}]}"))
        .isInstanceOf(InvalidScriptException.class)
        .hasMessageContaining("not valid JSON")
        .hasMessageContaining("Duplicate field 'text'");
  }

  @Test
  void trailingContentIsRefused() {
    assertThatThrownBy(() -> ScriptParser.parse("{\"steps\": []} {\"steps\": []}"))
        .isInstanceOf(InvalidScriptException.class)
        .hasMessageContaining("not valid JSON");
  }

  @Test
  void invalidScriptsAreInvalidInputWithTheirOwnCode() {
    assertThatThrownBy(() -> ScriptParser.parse("{}"))
        .isInstanceOfSatisfying(InvalidScriptException.class, e -> assertThat(e.code()).isEqualTo("invalid_script"));
  }

  private static Step single(String stepJson) {
    return ScriptParser.parse("{\"steps\": [" + stepJson + "]}").steps().get(0);
  }

  private static JsonNode object(String field, String value) {
    return JsonNodeFactory.instance.objectNode().put(field, value);
  }
}
