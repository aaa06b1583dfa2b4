package dev.roundhouse.drivers.openai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.drivers.testing.RecordingTurnContext;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.PermissionVerdict;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(LeakCheck.class)
class WorkspaceToolsTest {
  @TempDir Path temp;
  Path root;
  RecordingTurnContext context;
  WorkspaceTools tools;
  final List<String> live = new CopyOnWriteArrayList<>();

  @BeforeEach
  void setUp() throws Exception {
    root = Files.createDirectories(temp.resolve("repo"));
    Files.createDirectories(root.resolve("src/util"));
    Files.createDirectories(root.resolve(".git/objects"));
    Files.writeString(root.resolve(".git/HEAD"), "ref: refs/heads/main TODO");
    Files.writeString(root.resolve("README.md"), "# Demo\nTODO: write docs\n");
    Files.writeString(root.resolve("src/Main.java"), "class Main {\n  // TODO: greet\n  void run() {}\n}\n");
    Files.writeString(root.resolve("src/util/Text.java"), "class Text {\n  static String todo() { return \"todo\"; }\n}\n");
    Files.write(root.resolve("logo.png"), new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0, 1});
    context = new RecordingTurnContext(1, Clock.systemUTC());
    tools = new WorkspaceTools(new WorkspacePaths(root), new CommandRunner(Set.of(), null, 64 * 1024), context::requestPermission, Duration.ofMinutes(1));
  }

  private ToolOutcome call(String tool, String arguments) throws InterruptedException {
    return tools.call("call_1", tool, (ObjectNode) Json.read(arguments, com.fasterxml.jackson.databind.JsonNode.class), live::add);
  }

  @Test
  void readFileReturnsTheLinesAsked() throws Exception {
    assertThat(call("read_file", "{\"path\":\"src/Main.java\"}").output()).isEqualTo("class Main {\n  // TODO: greet\n  void run() {}\n}\n");
    assertThat(call("read_file", "{\"path\":\"src/Main.java\",\"offset\":2,\"limit\":2}").output())
        .isEqualTo("  // TODO: greet\n  void run() {}\n[... the file goes on; call read_file with offset 4 for more]\n");
  }

  @Test
  void readFileNamesWhatItCannotRead() throws Exception {
    assertThat(call("read_file", "{\"path\":\"src\"}")).isEqualTo(ToolOutcome.error("'src' is a folder; use list_files to see what it holds"));
    assertThat(call("read_file", "{\"path\":\"nope.txt\"}")).isEqualTo(ToolOutcome.error("there is no file 'nope.txt' (list_files shows what is there)"));
    assertThat(call("read_file", "{\"path\":\"logo.png\"}").output()).isEqualTo("'logo.png' looks like a binary file (7 bytes); it is not shown");
    assertThat(call("read_file", "{\"path\":\"README.md\",\"offset\":9}").output()).isEqualTo("'README.md' has 2 lines; offset 9 is past its end");
  }

  @Test
  void listFilesMarksFoldersAndSkipsGitWhenRecursive() throws Exception {
    assertThat(call("list_files", "{}").output()).isEqualTo(".git/\nREADME.md\nlogo.png\nsrc/");
    assertThat(call("list_files", "{\"path\":\"src\",\"recursive\":true}").output()).isEqualTo("src/Main.java\nsrc/util/\nsrc/util/Text.java");
    assertThat(call("list_files", "{\"recursive\":true}").output()).contains(".git/").doesNotContain(".git/HEAD");
  }

  @Test
  void searchFindsLinesWithTheirPathAndNumber() throws Exception {
    assertThat(call("search", "{\"pattern\":\"TODO\"}").output()).isEqualTo("README.md:2: TODO: write docs\nsrc/Main.java:2: // TODO: greet");
    assertThat(call("search", "{\"pattern\":\"todo\",\"ignore_case\":true,\"path\":\"src\"}").output().lines().count()).isEqualTo(2);
    assertThat(call("search", "{\"pattern\":\"void \\\\w+\\\\(\\\\)\",\"regex\":true}").output()).isEqualTo("src/Main.java:3: void run() {}");
    assertThat(call("search", "{\"pattern\":\"TODO\",\"max_results\":1}").output()).endsWith("[stopped at 1 matches; narrow the search or raise max_results]");
    assertThat(call("search", "{\"pattern\":\"nothing like this\"}").output()).isEqualTo("no matches for 'nothing like this' in .");
    assertThat(call("search", "{\"pattern\":\"(\",\"regex\":true}").output()).startsWith("'(' is not a valid regular expression: ");
  }

  @Test
  void readsNeverAskThePermissionGate() throws Exception {
    call("read_file", "{\"path\":\"README.md\"}");
    call("list_files", "{}");
    call("search", "{\"pattern\":\"x\"}");

    assertThat(context.permissionRequests()).isEmpty();
  }

  @Test
  void writeFileAsksFirstThenWrites() throws Exception {
    context.answer(PermissionVerdict.allow("allowed by the user"));

    ToolOutcome outcome = call("write_file", "{\"path\":\"notes/todo.txt\",\"content\":\"one\\ntwo\\n\"}");

    assertThat(outcome).isEqualTo(ToolOutcome.ok("created notes/todo.txt: 2 lines, 8 bytes"));
    assertThat(Files.readString(root.resolve("notes/todo.txt"))).isEqualTo("one\ntwo\n");
    PermissionRequest request = context.permissionRequests().get(0);
    assertThat(request.callId()).isEqualTo("call_1");
    assertThat(request.tool()).isEqualTo("write_file");
    assertThat(request.description()).isEqualTo("Create notes/todo.txt (2 lines)");
    assertThat(request.command()).isNull();
    assertThat(request.input().path("path").asText()).isEqualTo("notes/todo.txt");
  }

  @Test
  void aDeniedWriteChangesNothing() throws Exception {
    context.answer(PermissionVerdict.deny("denied by the user"));

    ToolOutcome outcome = call("write_file", "{\"path\":\"README.md\",\"content\":\"gone\"}");

    assertThat(outcome.isError()).isTrue();
    assertThat(outcome.output()).startsWith("permission to use write_file was denied: denied by the user.");
    assertThat(Files.readString(root.resolve("README.md"))).startsWith("# Demo");
    assertThat(context.permissionRequests().get(0).description()).isEqualTo("Overwrite README.md (1 lines)");
  }

  @Test
  void editFileReplacesOneExactOccurrence() throws Exception {
    context.answer(PermissionVerdict.allow("ok"));

    ToolOutcome outcome = call("edit_file", "{\"path\":\"src/Main.java\",\"old_string\":\"// TODO: greet\",\"new_string\":\"System.out.println(\\\"hi\\\");\"}");

    assertThat(outcome).isEqualTo(ToolOutcome.ok("replaced 1 occurrence in src/Main.java"));
    assertThat(Files.readString(root.resolve("src/Main.java"))).contains("  System.out.println(\"hi\");\n");
    assertThat(context.permissionRequests().get(0).description()).isEqualTo("Edit src/Main.java (1 change)");
  }

  @Test
  void editFileSaysWhyItCannotEditBeforeAskingAnyone() throws Exception {
    assertThat(call("edit_file", "{\"path\":\"src/Main.java\",\"old_string\":\"nothing like this\",\"new_string\":\"x\"}").output())
        .isEqualTo("old_string was not found in src/Main.java; read the file and copy the text exactly, whitespace included");
    assertThat(call("edit_file", "{\"path\":\"src/util/Text.java\",\"old_string\":\"todo\",\"new_string\":\"x\"}").output())
        .isEqualTo("old_string appears 2 times in src/util/Text.java; include more of the surrounding text to make it unique, or set replace_all to true");
    assertThat(call("edit_file", "{\"path\":\"missing.txt\",\"old_string\":\"a\",\"new_string\":\"b\"}").output())
        .isEqualTo("there is no file 'missing.txt'; use write_file to create it");
    assertThat(call("edit_file", "{\"path\":\"README.md\",\"old_string\":\"\",\"new_string\":\"b\"}").output())
        .isEqualTo("old_string is empty; to create a file or replace all of it use write_file");
    assertThat(context.permissionRequests()).isEmpty();
  }

  @Test
  void editFileCanReplaceEveryOccurrenceAndCopesWithCrlf() throws Exception {
    context.answer(PermissionVerdict.allow("ok"), PermissionVerdict.allow("ok"));
    Files.writeString(root.resolve("win.txt"), "a\r\nb\r\n", StandardCharsets.UTF_8);

    assertThat(call("edit_file", "{\"path\":\"src/util/Text.java\",\"old_string\":\"todo\",\"new_string\":\"note\",\"replace_all\":true}").output())
        .isEqualTo("replaced 2 occurrences in src/util/Text.java");
    assertThat(call("edit_file", "{\"path\":\"win.txt\",\"old_string\":\"a\\nb\",\"new_string\":\"x\\ny\"}").output())
        .isEqualTo("replaced 1 occurrence in win.txt");
    assertThat(Files.readString(root.resolve("win.txt"))).isEqualTo("x\r\ny\r\n");
  }

  @Test
  void runCommandPassesTheCommandLineToTheGate() throws Exception {
    context.answer(PermissionVerdict.allow("allowed by rule 'echo'"));

    ToolOutcome outcome = call("run_command", "{\"command\":\"echo hi\"}");

    assertThat(outcome).isEqualTo(ToolOutcome.ok("hi\n[exit code 0]"));
    assertThat(live).containsExactly("hi\n");
    PermissionRequest request = context.permissionRequests().get(0);
    assertThat(request.command()).isEqualTo("echo hi");
    assertThat(request.description()).isEqualTo("Run: echo hi");
  }

  @Test
  void aFailingOrDeniedCommandIsAnError() throws Exception {
    context.answer(PermissionVerdict.allow("ok"), PermissionVerdict.deny("denied: no answer"));

    assertThat(call("run_command", "{\"command\":\"exit 2\"}")).isEqualTo(ToolOutcome.error("(no output)\n[exit code 2]"));
    ToolOutcome denied = call("run_command", "{\"command\":\"rm -rf build\"}");
    assertThat(denied).isEqualTo(ToolOutcome.denied("run_command", "denied: no answer"));
    assertThat(context.permissionRequests().get(1).command()).isEqualTo("rm -rf build");
  }

  @Test
  void aCommandThatRunsPastItsTimeoutIsKilled() throws Exception {
    context.answer(PermissionVerdict.allow("ok"));

    ToolOutcome outcome = call("run_command", "{\"command\":\"echo start; sleep 300\",\"timeout_seconds\":1}");

    assertThat(outcome).isEqualTo(ToolOutcome.error("start\n[timed out after 1 s: the command and its child processes were killed]"));
  }

  @Test
  void pathsOutsideTheWorkingDirectoryAreToolErrorsAndNeverReachTheGate() throws Exception {
    assertThat(call("read_file", "{\"path\":\"../secret.txt\"}").output()).startsWith("read_file: '../secret.txt' is outside the working directory");
    assertThat(call("write_file", "{\"path\":\"/tmp/evil.sh\",\"content\":\"x\"}").output()).startsWith("write_file: '/tmp/evil.sh' is outside the working directory");
    assertThat(context.permissionRequests()).isEmpty();
  }

  @Test
  void badArgumentsAreNamed() throws Exception {
    assertThat(call("read_file", "{}")).isEqualTo(ToolOutcome.error("read_file: the argument 'path' is missing"));
    assertThat(call("read_file", "{\"path\":\"README.md\",\"limit\":\"lots\"}").output()).isEqualTo("read_file: 'limit' must be a whole number, not \"lots\"");
    assertThat(call("write_file", "{\"path\":\"a.txt\",\"content\":42}").output()).isEqualTo("write_file: 'content' must be a string, not number");
    assertThat(call("list_files", "{\"recursive\":\"maybe\"}").output()).isEqualTo("list_files: 'recursive' must be true or false, not \"maybe\"");
  }
}
