package dev.roundhouse.drivers.process;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How to start an agent CLI, as the user configured it: the program (a path, or a name looked up on
 * {@code PATH}), arguments that go before the driver's own, and environment variables set for it on top of
 * {@link ChildEnvironment}'s allowlist. Immutable.
 *
 * @param program such as {@code claude} or {@code /opt/agents/bin/gemini}
 * @param args extra arguments, placed right after the program
 * @param env extra variables (an API key, a base URL, a HOME of its own)
 */
public record AgentCommand(String program, List<String> args, Map<String, String> env) {
  public AgentCommand {
    Objects.requireNonNull(program, "program");
    if (program.isBlank()) {
      throw new IllegalArgumentException("an agent command needs a program");
    }
    args = List.copyOf(args);
    env = Map.copyOf(env);
  }

  /** Just a program, no extra arguments or variables. */
  public static AgentCommand of(String program) {
    return new AgentCommand(program, List.of(), Map.of());
  }

  /** A copy with {@code more} variables set (overriding the same names). */
  public AgentCommand withEnv(Map<String, String> more) {
    Map<String, String> merged = new java.util.HashMap<>(env);
    merged.putAll(more);
    return new AgentCommand(program, args, merged);
  }

  /** The program, then {@link #args}, then {@code driverArgs}. */
  public List<String> commandLine(List<String> driverArgs) {
    List<String> line = new ArrayList<>(1 + args.size() + driverArgs.size());
    line.add(program);
    line.addAll(args);
    line.addAll(driverArgs);
    return line;
  }

  /** Never prints the variables' values (they often hold keys). */
  @Override
  public String toString() {
    return "AgentCommand[" + program + " " + String.join(" ", args) + ", env " + env.keySet() + "]";
  }
}
