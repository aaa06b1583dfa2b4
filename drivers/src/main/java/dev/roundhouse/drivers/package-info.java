/**
 * Agent drivers (Claude Code, Codex, ACP agents, the OpenAI-compatible BYOK driver and the script driver).
 *
 * <p>Empty until the turns and drivers issues land: the module exists so the layout and the dependency rules
 * between modules ({@code drivers} may depend on the {@code hub} SPI only) are in place from the start.
 */
package dev.roundhouse.drivers;
