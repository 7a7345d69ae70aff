package io.migd.api.rest;

/**
 * Where an instance sits: its first slice and how many slices it spans (memory slices for a GPU
 * instance, compute slices of its GPU instance for a compute instance).
 *
 * @param start the first slice
 * @param size how many slices
 */
public record Placement(int start, int size) {}
