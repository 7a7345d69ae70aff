package io.migd.api.rest;

/**
 * How the last reconcile ended.
 *
 * @param generation the intent's generation it worked towards
 * @param state the node state it ended in
 * @param reason one sentence: the worst GPU's reason, or that all is well
 * @param at when it ended (ISO-8601)
 */
public record ReconcileOutcome(long generation, String state, String reason, String at) {}
