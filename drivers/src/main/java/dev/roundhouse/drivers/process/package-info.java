/**
 * Running an agent CLI as a child: started through the turn's launcher (its own process group, the turn's run
 * marker and cgroup, a parent-death signal; {@code docs/processes.md}), an environment that carries none of the hub's
 * secrets, line-oriented stdin and stdout, and a stop that leaves no process behind. Shared by the drivers
 * that drive a CLI (Claude Code, Codex, ACP agents).
 */
package dev.roundhouse.drivers.process;
