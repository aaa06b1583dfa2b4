/**
 * The {@code script} driver: {@link dev.roundhouse.drivers.script.ScriptDriver} plays JSON scripts
 * (documented in {@code docs/drivers/script.md}) through the turn SPI, so tests, benchmarks and {@code
 * roundhouse demo} get a deterministic agent with streaming, tools, permissions, questions, usage, delays,
 * failures and linger.
 */
package dev.roundhouse.drivers.script;
