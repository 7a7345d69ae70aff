package io.migd.devices;

/** A device ID the kubelet has allocated to a container of a running pod (PodResources). */
public record PodDevice(
    String resource, String deviceId, String namespace, String pod, String container) {}
