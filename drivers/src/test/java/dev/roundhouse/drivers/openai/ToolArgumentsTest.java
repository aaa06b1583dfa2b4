package dev.roundhouse.drivers.openai;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ToolArgumentsTest {

  @Test
  void validJsonIsTakenAsItIs() {
    ToolArguments.Outcome outcome = ToolArguments.parse("read_file", "{\"path\": \"src/Main.java\", \"limit\": 20}");

    assertThat(outcome.error()).isNull();
    assertThat(outcome.repaired()).isFalse();
    assertThat(outcome.arguments().toString()).isEqualTo("{\"path\":\"src/Main.java\",\"limit\":20}");
  }

  @Test
  void noArgumentsAtAllAreAnEmptyObject() {
    assertThat(ToolArguments.parse("list_files", "").arguments().isEmpty()).isTrue();
    assertThat(ToolArguments.parse("list_files", null).arguments().isEmpty()).isTrue();
    assertThat(ToolArguments.parse("list_files", "  \n").arguments().isEmpty()).isTrue();
  }

  static Stream<Arguments> repairable() {
    return Stream.of(
        Arguments.of("markdown fence", "```json\n{\"path\": \"a.txt\"}\n```"),
        Arguments.of("bare fence", "```\n{\"path\": \"a.txt\"}\n```"),
        Arguments.of("trailing comma", "{\"path\": \"a.txt\",}"),
        Arguments.of("text before and after", "Sure! Here are the arguments: {\"path\": \"a.txt\"} Hope that helps."),
        Arguments.of("single quotes", "{'path': 'a.txt'}"),
        Arguments.of("unquoted key", "{path: \"a.txt\"}"),
        Arguments.of("comment", "{\"path\": \"a.txt\" // the file\n}"),
        Arguments.of("object as a JSON string", "\"{\\\"path\\\": \\\"a.txt\\\"}\""),
        Arguments.of("extra closing brace", "{\"path\": \"a.txt\"}}"),
        Arguments.of("fence, prose and trailing comma", "I'll read it.\n```json\n{\n  \"path\": \"a.txt\",\n}\n```\n"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("repairable")
  void commonBreakagesAreRepaired(String what, String raw) {
    ToolArguments.Outcome outcome = ToolArguments.parse("read_file", raw);

    assertThat(outcome.error()).as(what).isNull();
    assertThat(outcome.repaired()).isTrue();
    assertThat(outcome.arguments().path("path").asText()).isEqualTo("a.txt");
  }

  @Test
  void rawNewlinesInsideAStringAreKept() {
    ToolArguments.Outcome outcome = ToolArguments.parse("write_file", "{\"path\": \"a.txt\", \"content\": \"line 1\nline 2\"}");

    assertThat(outcome.arguments().path("content").asText()).isEqualTo("line 1\nline 2");
  }

  @Test
  void bracesInsideStringsDoNotEndTheObject() {
    ToolArguments.Outcome outcome = ToolArguments.parse("write_file", "Here: {\"path\": \"a.js\", \"content\": \"function f() { return '}'; }\"} done");

    assertThat(outcome.arguments().path("content").asText()).isEqualTo("function f() { return '}'; }");
  }

  @Test
  void unrepairableArgumentsBecomeAMessageForTheModel() {
    ToolArguments.Outcome outcome = ToolArguments.parse("read_file", "{\"path\": \"a.txt\" \"limit\" 3");

    assertThat(outcome.arguments()).isNull();
    assertThat(outcome.error())
        .startsWith("could not parse the arguments of read_file: ")
        .contains("{\"path\": \"a.txt\" \"limit\" 3")
        .endsWith("send one JSON object that matches the tool's schema");
  }

  @Test
  void textWithoutAnObjectIsNamed() {
    ToolArguments.Outcome outcome = ToolArguments.parse("search", "just look for TODO please");

    assertThat(outcome.error()).isEqualTo(
        "could not parse the arguments of search: there is no JSON object in 'just look for TODO please'; send one JSON object that matches the tool's schema");
  }

  @Test
  void anArrayIsNotAnObject() {
    assertThat(ToolArguments.parse("search", "[1, 2]").error()).startsWith("could not parse the arguments of search: there is no JSON object");
  }
}
