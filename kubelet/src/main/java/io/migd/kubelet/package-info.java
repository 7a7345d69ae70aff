/**
 * The kubelet surface: one device plugin gRPC server per resource on a unix socket, registration
 * that survives kubelet restarts, and the PodResources client.
 */
package io.migd.kubelet;
