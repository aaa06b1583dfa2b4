package dev.roundhouse.services;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a project declares about one service. Exactly one of {@code argv} (run as is, no shell) and
 * {@code shell} (a command line) is given; a command line without shell syntax other than {@code $NAME}
 * references is split and run without a shell too (see {@code docs/services.md}).
 *
 * @param name unique within the project: lower case letters, digits, {@code -} and {@code _}
 * @param argv the program and its arguments, or empty
 * @param shell a command line, or null
 * @param cwd the working directory (the project or a task's worktree), an absolute path
 * @param env variables added to the hub's environment ({@code PORT} is set by the supervisor)
 * @param kind setup, dev, test or custom
 * @param restart when it is restarted after exiting on its own
 * @param readiness when it counts as ready
 * @param dependsOn services that must be finished (setup) or ready (others) before this one starts
 */
public record ServiceDefinition(
    String name,
    List<String> argv,
    String shell,
    String cwd,
    Map<String, String> env,
    ServiceKind kind,
    RestartPolicy restart,
    Readiness readiness,
    List<String> dependsOn) {
  private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,63}");

  public ServiceDefinition {
    if (name == null || !NAME.matcher(name).matches()) {
      throw new ServiceException("service name " + (name == null ? "(missing)" : "'" + name + "'")
          + " must be 1-64 lower case letters, digits, '-' or '_', starting with a letter or digit");
    }
    argv = argv == null ? List.of() : List.copyOf(argv);
    if (argv.isEmpty() == (shell == null || shell.isBlank())) {
      throw new ServiceException("service " + name + " needs exactly one of argv and shell");
    }
    if (cwd == null || !cwd.startsWith("/")) {
      throw new ServiceException("service " + name + " needs an absolute working directory, not " + cwd);
    }
    env = env == null ? Map.of() : Map.copyOf(env);
    kind = kind == null ? ServiceKind.DEV : kind;
    restart = restart == null ? RestartPolicy.never() : restart;
    readiness = readiness == null ? Readiness.none() : readiness;
    dependsOn = dependsOn == null ? List.of() : List.copyOf(dependsOn);
    if (dependsOn.contains(name)) {
      throw new ServiceException("service " + name + " cannot depend on itself");
    }
  }

  /** A service run as {@code argv}, without a shell, of kind dev, with no restart and no readiness check. */
  public static ServiceDefinition of(String name, String cwd, List<String> argv) {
    return new ServiceDefinition(name, argv, null, cwd, Map.of(), ServiceKind.DEV, null, null, List.of());
  }

  /** A service run from a command line. */
  public static ServiceDefinition shell(String name, String cwd, String commandLine) {
    return new ServiceDefinition(name, List.of(), commandLine, cwd, Map.of(), ServiceKind.DEV, null, null, List.of());
  }

  public ServiceDefinition withKind(ServiceKind newKind) {
    return new ServiceDefinition(name, argv, shell, cwd, env, newKind, restart, readiness, dependsOn);
  }

  public ServiceDefinition withRestart(RestartPolicy newRestart) {
    return new ServiceDefinition(name, argv, shell, cwd, env, kind, newRestart, readiness, dependsOn);
  }

  public ServiceDefinition withReadiness(Readiness newReadiness) {
    return new ServiceDefinition(name, argv, shell, cwd, env, kind, restart, newReadiness, dependsOn);
  }

  public ServiceDefinition withEnv(Map<String, String> newEnv) {
    return new ServiceDefinition(name, argv, shell, cwd, newEnv, kind, restart, readiness, dependsOn);
  }

  public ServiceDefinition withDependsOn(List<String> newDependsOn) {
    return new ServiceDefinition(name, argv, shell, cwd, env, kind, restart, readiness, newDependsOn);
  }
}
