/**
 * The Claude Code driver. {@link dev.roundhouse.drivers.claude.ClaudeDriver} and {@link
 * dev.roundhouse.drivers.claude.ClaudeSettings} are public; the rest is package-private:
 *
 * <ul>
 *   <li>{@code ClaudeSession}, {@code Inbox}: one CLI process, its stdout, the stop protocol;
 *   <li>{@code StreamMapper}, {@code PermissionRequests}, {@code UserQuestions}: the CLI's {@code
 *       stream-json} lines in the hub's terms;
 *   <li>{@code ControlMessages}: what goes back on its stdin;
 *   <li>{@code ClaudeCommandLine}, {@code TurnFolder}: its arguments, MCP configuration and system prompt;
 *   <li>{@code ClaudeProbe}, {@code CliHelp}: version, login, permission modes and models, read from the
 *       CLI.
 * </ul>
 *
 * <p>See {@code docs/drivers/claude.md}.
 */
package dev.roundhouse.drivers.claude;
