/**
 * The generic driver for agents that speak the Agent Client Protocol over stdio (Gemini CLI's {@code
 * --acp}, and any other ACP agent configured by command, arguments and environment). Only {@link
 * dev.roundhouse.drivers.acp.AcpDriver} and {@link dev.roundhouse.drivers.acp.AcpAgentConfig} are public.
 * See {@code docs/drivers/acp.md}.
 */
package dev.roundhouse.drivers.acp;
