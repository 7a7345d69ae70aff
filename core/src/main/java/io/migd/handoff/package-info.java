/**
 * Handing numbered values from many threads to one consumer, newest first: an older value never
 * follows a newer one (the kubelet's device plugins, the DRA pool).
 */
package io.migd.handoff;
