package dev.roundhouse.hub.model;

/** A tag with its presentation and how many tasks carry it. Immutable. */
public record Tag(String name, String color, String description, int tasks) {}
