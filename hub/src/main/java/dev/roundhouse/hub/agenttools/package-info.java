/**
 * The agents' own tools ({@code suggest_task}, {@code list_tasks}, … {@code ask_user}): hub operations
 * with agent-friendly names and answers, over the board's and the runner's existing rules, every answer
 * passed through one guard. See {@code docs/mcp.md}.
 */
package dev.roundhouse.hub.agenttools;
