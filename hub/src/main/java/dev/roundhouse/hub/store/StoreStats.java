package dev.roundhouse.hub.store;

/**
 * What the store's writer has done since it started (for {@code GET /metrics}). Immutable.
 *
 * @param commits transactions committed (each a group of one or more writes)
 * @param writes the writes those transactions held
 * @param commitNanos the time from each transaction's begin to its commit returning, summed
 */
public record StoreStats(long commits, long writes, long commitNanos) {}
