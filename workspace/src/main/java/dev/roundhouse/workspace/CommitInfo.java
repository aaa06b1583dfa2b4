package dev.roundhouse.workspace;

import java.time.Instant;

/** One commit, as a face lists it. */
public record CommitInfo(String id, String shortId, String author, String email, Instant time, String subject) {}
