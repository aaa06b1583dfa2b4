package dev.roundhouse.drivers.openai;

import static dev.roundhouse.drivers.openai.ToolInput.optionalBoolean;
import static dev.roundhouse.drivers.openai.ToolInput.optionalInt;
import static dev.roundhouse.drivers.openai.ToolInput.optionalText;
import static dev.roundhouse.drivers.openai.ToolInput.requiredString;
import static dev.roundhouse.drivers.openai.ToolInput.requiredText;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.roundhouse.drivers.openai.ToolInput.ArgumentException;
import dev.roundhouse.hub.core.Json;
import dev.roundhouse.hub.spi.PermissionRequest;
import dev.roundhouse.hub.spi.PermissionVerdict;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Stream;

/**
 * The workspace tools the model gets besides the hub's operations: {@code read_file}, {@code list_files},
 * {@code search}, {@code write_file}, {@code edit_file} and {@code run_command}, all confined to the turn's
 * working directory by {@link WorkspacePaths}. Writes, edits and commands ask the permission gate first
 * (after their arguments are checked, so a human is never asked about a call that cannot run); reads do
 * not. Every problem comes back as an error {@link ToolOutcome} for the model, never as an exception.
 *
 * <p>Thread-safe as far as its parts are; the chat loop calls it from one thread.
 */
final class WorkspaceTools {
  static final String READ_FILE = "read_file";
  static final String LIST_FILES = "list_files";
  static final String SEARCH = "search";
  static final String WRITE_FILE = "write_file";
  static final String EDIT_FILE = "edit_file";
  static final String RUN_COMMAND = "run_command";

  /** The tools that only read, which the gate lets through without asking. */
  static final Set<String> READ_ONLY = Set.of(READ_FILE, LIST_FILES, SEARCH);

  static final Set<String> NAMES = Set.of(READ_FILE, LIST_FILES, SEARCH, WRITE_FILE, EDIT_FILE, RUN_COMMAND);

  private static final int MAX_OUTPUT_CHARS = 100_000;
  private static final int DEFAULT_READ_LINES = 2000;
  private static final int MAX_LINE_CHARS = 2000;
  private static final int MAX_LIST_ENTRIES = 1000;
  private static final int DEFAULT_MATCHES = 100;
  private static final int MAX_MATCHES = 500;
  private static final long MAX_SEARCHED_FILE_BYTES = 2L * 1024 * 1024;
  private static final int MAX_WALKED = 200_000;
  private static final Set<String> SKIPPED_FOLDERS = Set.of(".git", "node_modules");

  private final WorkspacePaths paths;
  private final CommandRunner commands;
  private final Function<PermissionRequest, PermissionVerdict> gate;
  private final Duration maxCommandTime;

  /**
   * @param gate the permission gate ({@code TurnContext::requestPermission})
   * @param maxCommandTime the longest a command may run (also its default timeout)
   */
  WorkspaceTools(WorkspacePaths paths, CommandRunner commands, Function<PermissionRequest, PermissionVerdict> gate, Duration maxCommandTime) {
    this.paths = paths;
    this.commands = commands;
    this.gate = gate;
    this.maxCommandTime = maxCommandTime;
  }

  /** The tools as OpenAI function definitions. */
  ArrayNode definitions() {
    ArrayNode tools = Json.mapper().createArrayNode();
    tools.add(ToolSchema.function(READ_FILE, "Read a text file in the working directory. Returns its lines as they are (no line numbers).",
        ToolSchema.object().required("path", "string", "File path, relative to the working directory")
            .optional("offset", "integer", "First line to return, counting from 1 (default 1)")
            .optional("limit", "integer", "How many lines to return (default " + DEFAULT_READ_LINES + ")")));
    tools.add(ToolSchema.function(LIST_FILES, "List the files and folders in a folder of the working directory. Folders end in '/'.",
        ToolSchema.object().optional("path", "string", "Folder, relative to the working directory (default '.')")
            .optional("recursive", "boolean", "Also list everything below, skipping .git and node_modules (default false)")));
    tools.add(ToolSchema.function(SEARCH, "Search the text of the files under a folder. Returns 'path:line: text' for each matching line.",
        ToolSchema.object().required("pattern", "string", "Text to look for (a regular expression when regex is true)")
            .optional("path", "string", "Folder or file to search (default '.')")
            .optional("regex", "boolean", "Treat pattern as a Java regular expression (default false)")
            .optional("ignore_case", "boolean", "Ignore upper and lower case (default false)")
            .optional("max_results", "integer", "Most matching lines to return (default " + DEFAULT_MATCHES + ", at most " + MAX_MATCHES + ")")));
    tools.add(ToolSchema.function(WRITE_FILE, "Create a file, or replace all of its content. Creates missing folders. May need the user's approval.",
        ToolSchema.object().required("path", "string", "File path, relative to the working directory")
            .required("content", "string", "The whole new content of the file")));
    tools.add(ToolSchema.function(EDIT_FILE, "Replace an exact piece of text in a file. old_string must match the file exactly, whitespace included, and appear once unless replace_all is true. May need the user's approval.",
        ToolSchema.object().required("path", "string", "File path, relative to the working directory")
            .required("old_string", "string", "The exact text to replace")
            .required("new_string", "string", "The text to put in its place")
            .optional("replace_all", "boolean", "Replace every occurrence (default false)")));
    tools.add(ToolSchema.function(RUN_COMMAND, "Run a shell command with bash in the working directory and return its output (stdout and stderr) and exit code. stdin is empty; background processes are ended when the command returns. May need the user's approval.",
        ToolSchema.object().required("command", "string", "The command line, as for bash -c")
            .optional("timeout_seconds", "integer", "Stop the command after this many seconds (default and most: " + maxCommandTime.toSeconds() + ")")));
    return tools;
  }

  /**
   * Runs a workspace tool.
   *
   * @param output receives a running command's output as it arrives
   */
  ToolOutcome call(String callId, String name, ObjectNode arguments, Consumer<String> output) throws InterruptedException {
    try {
      return switch (name) {
        case READ_FILE -> readFile(arguments);
        case LIST_FILES -> listFiles(arguments);
        case SEARCH -> search(arguments);
        case WRITE_FILE -> writeFile(callId, arguments);
        case EDIT_FILE -> editFile(callId, arguments);
        case RUN_COMMAND -> runCommand(callId, arguments, output);
        default -> ToolOutcome.error("there is no workspace tool named '" + name + "'");
      };
    } catch (ArgumentException | WorkspacePaths.PathException e) {
      return ToolOutcome.error(name + ": " + e.getMessage());
    } catch (IOException e) {
      return ToolOutcome.error(name + " failed: " + ChatClient.reason(e));
    }
  }

  private ToolOutcome readFile(ObjectNode arguments) throws ArgumentException, WorkspacePaths.PathException, IOException {
    String given = requiredText(arguments, "path");
    int offset = optionalInt(arguments, "offset", 1, 1, Integer.MAX_VALUE);
    int limit = optionalInt(arguments, "limit", DEFAULT_READ_LINES, 1, Integer.MAX_VALUE);
    Path file = paths.resolve(given);
    if (Files.isDirectory(file)) {
      return ToolOutcome.error("'" + given + "' is a folder; use list_files to see what it holds");
    }
    if (!Files.exists(file)) {
      return ToolOutcome.error("there is no file '" + given + "' (list_files shows what is there)");
    }
    if (looksBinary(file)) {
      return ToolOutcome.error("'" + given + "' looks like a binary file (" + Files.size(file) + " bytes); it is not shown");
    }
    StringBuilder text = new StringBuilder();
    int lineNumber = 0;
    int lastShown = 0;
    boolean more = false;
    try (BufferedReader reader = new BufferedReader(new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        lineNumber++;
        if (lineNumber < offset) {
          continue;
        }
        if (lineNumber >= (long) offset + limit || text.length() + line.length() > MAX_OUTPUT_CHARS) {
          more = true;
          break;
        }
        text.append(line.length() > MAX_LINE_CHARS ? line.substring(0, MAX_LINE_CHARS) + " [line cut at " + MAX_LINE_CHARS + " characters]" : line).append('\n');
        lastShown = lineNumber;
      }
    }
    if (lineNumber == 0) {
      return ToolOutcome.ok("(the file is empty)");
    }
    if (lastShown == 0 && !more) {
      return ToolOutcome.error("'" + given + "' has " + lineNumber + " lines; offset " + offset + " is past its end");
    }
    if (more) {
      text.append("[... the file goes on; call read_file with offset ").append(lastShown + 1).append(" for more]\n");
    }
    return ToolOutcome.ok(text.toString());
  }

  private ToolOutcome listFiles(ObjectNode arguments) throws ArgumentException, WorkspacePaths.PathException, IOException {
    String given = optionalText(arguments, "path", ".");
    boolean recursive = optionalBoolean(arguments, "recursive", false);
    Path folder = paths.resolve(given);
    if (!Files.isDirectory(folder)) {
      return ToolOutcome.error(Files.exists(folder) ? "'" + given + "' is a file, not a folder; use read_file" : "there is no folder '" + given + "'");
    }
    List<String> entries = new ArrayList<>();
    int total = 0;
    if (recursive) {
      for (Path entry : walk(folder)) {
        total++;
        if (entries.size() < MAX_LIST_ENTRIES) {
          entries.add(paths.show(entry) + marker(entry));
        }
      }
    } else {
      try (Stream<Path> children = Files.list(folder)) {
        for (Path child : children.sorted().toList()) {
          total++;
          if (entries.size() < MAX_LIST_ENTRIES) {
            entries.add(paths.show(child) + marker(child));
          }
        }
      }
    }
    if (entries.isEmpty()) {
      return ToolOutcome.ok("(the folder '" + given + "' is empty)");
    }
    String listing = String.join("\n", entries);
    if (total > entries.size()) {
      listing += "\n[... " + (total - entries.size()) + " more entries not shown; list a subfolder]";
    }
    return ToolOutcome.ok(listing);
  }

  private ToolOutcome search(ObjectNode arguments) throws ArgumentException, WorkspacePaths.PathException, IOException {
    String text = requiredText(arguments, "pattern");
    String given = optionalText(arguments, "path", ".");
    boolean regex = optionalBoolean(arguments, "regex", false);
    boolean ignoreCase = optionalBoolean(arguments, "ignore_case", false);
    int max = optionalInt(arguments, "max_results", DEFAULT_MATCHES, 1, MAX_MATCHES);
    Pattern pattern;
    try {
      int flags = ignoreCase ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0;
      pattern = Pattern.compile(regex ? text : Pattern.quote(text), flags);
    } catch (PatternSyntaxException e) {
      return ToolOutcome.error("'" + text + "' is not a valid regular expression: " + e.getDescription() + "; set regex to false to search for the text as it is");
    }
    Path start = paths.resolve(given);
    if (!Files.exists(start)) {
      return ToolOutcome.error("there is no file or folder '" + given + "'");
    }
    List<String> matches = new ArrayList<>();
    boolean capped = false;
    List<Path> files = Files.isDirectory(start) ? walk(start) : List.of(start);
    search:
    for (Path file : files) {
      if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) > MAX_SEARCHED_FILE_BYTES || looksBinary(file)) {
        continue;
      }
      try (BufferedReader reader = new BufferedReader(new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8))) {
        String line;
        int number = 0;
        while ((line = reader.readLine()) != null) {
          number++;
          if (pattern.matcher(line).find()) {
            if (matches.size() == max) {
              capped = true;
              break search;
            }
            String shown = line.strip();
            matches.add(paths.show(file) + ":" + number + ": " + (shown.length() > 300 ? shown.substring(0, 300) + "..." : shown));
          }
        }
      } catch (IOException e) {
        // An unreadable file is skipped, as grep would.
      }
    }
    if (matches.isEmpty()) {
      return ToolOutcome.ok("no matches for '" + text + "' in " + given);
    }
    String result = String.join("\n", matches);
    return ToolOutcome.ok(capped ? result + "\n[stopped at " + max + " matches; narrow the search or raise max_results]" : result);
  }

  private ToolOutcome writeFile(String callId, ObjectNode arguments) throws ArgumentException, WorkspacePaths.PathException, IOException {
    String given = requiredText(arguments, "path");
    String content = requiredString(arguments, "content");
    Path file = paths.resolve(given);
    if (Files.isDirectory(file)) {
      return ToolOutcome.error("'" + given + "' is a folder; write_file needs a file path");
    }
    boolean exists = Files.exists(file);
    long lines = content.lines().count();
    String shown = paths.show(file);
    PermissionVerdict verdict =
        gate.apply(new PermissionRequest(callId, WRITE_FILE, arguments, (exists ? "Overwrite " : "Create ") + shown + " (" + lines + " lines)", null));
    if (!verdict.allowed()) {
      return ToolOutcome.denied(WRITE_FILE, verdict.reason());
    }
    Files.createDirectories(file.getParent());
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
    Files.write(file, bytes);
    return ToolOutcome.ok((exists ? "replaced " : "created ") + shown + ": " + lines + " lines, " + bytes.length + " bytes");
  }

  private ToolOutcome editFile(String callId, ObjectNode arguments) throws ArgumentException, WorkspacePaths.PathException, IOException {
    String given = requiredText(arguments, "path");
    String oldText = requiredString(arguments, "old_string");
    String newText = requiredString(arguments, "new_string");
    boolean all = optionalBoolean(arguments, "replace_all", false);
    if (oldText.isEmpty()) {
      return ToolOutcome.error("old_string is empty; to create a file or replace all of it use write_file");
    }
    if (oldText.equals(newText)) {
      return ToolOutcome.error("old_string and new_string are the same; there is nothing to change");
    }
    Path file = paths.resolve(given);
    if (!Files.isRegularFile(file)) {
      return ToolOutcome.error("there is no file '" + given + "'" + (Files.isDirectory(file) ? " (it is a folder)" : "; use write_file to create it"));
    }
    String content;
    try {
      content = Files.readString(file, StandardCharsets.UTF_8);
    } catch (java.nio.charset.MalformedInputException e) {
      return ToolOutcome.error("'" + given + "' is not UTF-8 text; edit_file cannot change it");
    }
    int count = occurrences(content, oldText);
    if (count == 0 && content.contains("\r\n") && !oldText.contains("\r\n")) {
      // The model writes LF; the file has CRLF line ends.
      oldText = oldText.replace("\n", "\r\n");
      newText = newText.replace("\n", "\r\n");
      count = occurrences(content, oldText);
    }
    String shown = paths.show(file);
    if (count == 0) {
      return ToolOutcome.error("old_string was not found in " + shown + "; read the file and copy the text exactly, whitespace included");
    }
    if (count > 1 && !all) {
      return ToolOutcome.error("old_string appears " + count + " times in " + shown + "; include more of the surrounding text to make it unique, or set replace_all to true");
    }
    int replaced = all ? count : 1;
    PermissionVerdict verdict =
        gate.apply(new PermissionRequest(callId, EDIT_FILE, arguments, "Edit " + shown + " (" + replaced + (replaced == 1 ? " change)" : " changes)"), null));
    if (!verdict.allowed()) {
      return ToolOutcome.denied(EDIT_FILE, verdict.reason());
    }
    String updated = all ? content.replace(oldText, newText) : replaceFirst(content, oldText, newText);
    Files.writeString(file, updated, StandardCharsets.UTF_8);
    return ToolOutcome.ok("replaced " + replaced + (replaced == 1 ? " occurrence" : " occurrences") + " in " + shown);
  }

  private ToolOutcome runCommand(String callId, ObjectNode arguments, Consumer<String> output) throws ArgumentException, IOException, InterruptedException {
    String command = requiredText(arguments, "command");
    long maxSeconds = Math.max(1, maxCommandTime.toSeconds());
    int seconds = optionalInt(arguments, "timeout_seconds", (int) Math.min(Integer.MAX_VALUE, maxSeconds), 1, Integer.MAX_VALUE);
    Duration timeout = Duration.ofSeconds(Math.min(seconds, maxSeconds));
    String firstLine = command.strip().lines().findFirst().orElse("");
    PermissionVerdict verdict =
        gate.apply(new PermissionRequest(callId, RUN_COMMAND, arguments, "Run: " + SseLines.shorten(firstLine) + (command.strip().contains("\n") ? " …" : ""), command));
    if (!verdict.allowed()) {
      return ToolOutcome.denied(RUN_COMMAND, verdict.reason());
    }
    CommandRunner.Outcome outcome = commands.run(paths.root(), command, timeout, output);
    StringBuilder text = new StringBuilder(outcome.output());
    if (!text.isEmpty() && text.charAt(text.length() - 1) != '\n') {
      text.append('\n');
    }
    if (outcome.output().isEmpty()) {
      text.append("(no output)\n");
    }
    if (outcome.stopped()) {
      text.append("[stopped: the turn was stopped and the command was killed]");
    } else if (outcome.timedOut()) {
      text.append("[timed out after ").append(timeout.toSeconds()).append(" s: the command and its child processes were killed]");
    } else {
      text.append("[exit code ").append(outcome.exitCode()).append(']');
    }
    boolean failed = outcome.stopped() || outcome.timedOut() || outcome.exitCode() != 0;
    return failed ? ToolOutcome.error(text.toString()) : ToolOutcome.ok(text.toString());
  }

  /**
   * Everything under {@code start} (not itself), in name order, without following links and without the
   * inside of .git and node_modules; at most {@value #MAX_WALKED} entries.
   */
  private static List<Path> walk(Path start) throws IOException {
    List<Path> found = new ArrayList<>();
    Files.walkFileTree(start, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
        if (dir.equals(start)) {
          return FileVisitResult.CONTINUE;
        }
        found.add(dir);
        if (found.size() >= MAX_WALKED) {
          return FileVisitResult.TERMINATE;
        }
        return SKIPPED_FOLDERS.contains(dir.getFileName().toString()) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
        found.add(file);
        return found.size() >= MAX_WALKED ? FileVisitResult.TERMINATE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFileFailed(Path file, IOException e) {
        return FileVisitResult.CONTINUE;
      }
    });
    found.sort(null);
    return found;
  }

  /** "/" after a folder, "@" after a symbolic link. */
  private static String marker(Path entry) {
    if (Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
      return "/";
    }
    return Files.isSymbolicLink(entry) ? "@" : "";
  }

  private static int occurrences(String text, String part) {
    int count = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
      count++;
    }
    return count;
  }

  private static String replaceFirst(String text, String part, String replacement) {
    int at = text.indexOf(part);
    return text.substring(0, at) + replacement + text.substring(at + part.length());
  }

  private static boolean looksBinary(Path file) throws IOException {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] start = in.readNBytes(8192);
      for (byte b : start) {
        if (b == 0) {
          return true;
        }
      }
      return false;
    } catch (NoSuchFileException e) {
      return false;
    }
  }

}
