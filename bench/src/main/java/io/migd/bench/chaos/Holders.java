package io.migd.bench.chaos;

import io.migd.api.deviceplugin.v1beta1.AllocateRequest;
import io.migd.api.deviceplugin.v1beta1.ContainerAllocateRequest;
import io.migd.api.podresources.v1.ContainerDevices;
import io.migd.api.podresources.v1.ContainerResources;
import io.migd.api.podresources.v1.ListPodResourcesResponse;
import io.migd.api.podresources.v1.PodResources;
import io.migd.kubelet.FakeKubelet;
import io.migd.kubelet.FakePodResources;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What holds slices: pods the kubelet allocated devices to (listed by PodResources) and compute
 * processes attached with {@code nvml-sim}. Checks that nothing they hold was destroyed.
 */
final class Holders {
  /** A running pod and the one device it was allocated. */
  record Pod(String name, String resource, String deviceId) {
    /** The GPU or MIG device UUID behind the device ID ({@code <parent>::<n>} for a replica). */
    String parent() {
      int replica = deviceId.indexOf("::");
      return replica < 0 ? deviceId : deviceId.substring(0, replica);
    }
  }

  /** A compute process and the GPU it runs on. */
  record Proc(int pid, int gpu) {}

  private final List<Pod> pods = new ArrayList<>();
  private final List<Proc> processes = new ArrayList<>();
  private long lastAllocateNanos = System.nanoTime();
  private final Path nvmlSim;
  private final Path state;
  private final FakePodResources podResources;

  Holders(Path nvmlSim, Path state, FakePodResources podResources) {
    this.nvmlSim = nvmlSim;
    this.state = state;
    this.podResources = podResources;
  }

  /**
   * The kubelet allocates the {@code which}-th device it sees that no pod holds (Allocate), and the
   * pod runs. Returns how that went.
   */
  String startPod(FakeKubelet kubelet, int which, String name) {
    var free = new ArrayList<String[]>();
    Set<String> held = new TreeSet<>(pods.stream().map(Pod::deviceId).toList());
    for (String resource : new TreeSet<>(kubelet.registeredResources())) {
      if (kubelet.streaming(resource)) {
        kubelet.ids(resource).stream()
            .filter(id -> !held.contains(id))
            .sorted()
            .forEach(id -> free.add(new String[] {resource, id}));
      }
    }
    if (free.isEmpty()) {
      return "no free device";
    }
    String[] device = free.get(which % free.size());
    try {
      kubelet
          .plugin(device[0])
          .allocate(
              AllocateRequest.newBuilder()
                  .addContainerRequests(
                      ContainerAllocateRequest.newBuilder().addDevicesIds(device[1]))
                  .build());
    } catch (RuntimeException e) {
      return "allocate refused";
    }
    lastAllocateNanos = System.nanoTime();
    pods.add(new Pod(name, device[0], device[1]));
    publish();
    return "running";
  }

  /** When the last {@code Allocate} succeeded (the runner's start before the first). */
  long lastAllocateNanos() {
    return lastAllocateNanos;
  }

  String endPod(int which) {
    if (pods.isEmpty()) {
      return "no pod";
    }
    pods.remove(which % pods.size());
    publish();
    return "ended";
  }

  /**
   * Attaches process {@code pid} to the {@code which}-th compute instance of a GPU (or the GPU).
   */
  String attach(NvmlView nvml, int gpu, int which, int pid) {
    NvmlView.Gpu g = nvml.gpus().get(gpu);
    var args = new ArrayList<>(List.of("attach", "--gpu", Integer.toString(gpu)));
    if (g.migCurrent()) {
      var slices = new ArrayList<int[]>();
      g.instances()
          .forEach(
              gi -> gi.computeInstances().forEach(ci -> slices.add(new int[] {gi.id(), ci.id()})));
      if (slices.isEmpty()) {
        return "no slice";
      }
      int[] slice = slices.get(which % slices.size());
      args.addAll(List.of("--gi", Integer.toString(slice[0]), "--ci", Integer.toString(slice[1])));
    }
    args.addAll(List.of("--pid", Integer.toString(pid), "--mem", "64", "--name", "chaos-" + pid));
    try {
      NvmlView.run(nvmlSim, state, args.toArray(String[]::new));
    } catch (NvmlView.SimRefused e) {
      return "refused";
    }
    processes.add(new Proc(pid, gpu));
    return "attached";
  }

  String detach(int which) {
    if (processes.isEmpty()) {
      return "no process";
    }
    Proc p = processes.remove(which % processes.size());
    NvmlView.run(nvmlSim, state, "detach", "--pid", Integer.toString(p.pid()));
    return "detached";
  }

  /** Every pod ends and every process exits. */
  void releaseAll() {
    pods.clear();
    publish();
    for (Proc p : processes) {
      NvmlView.run(nvmlSim, state, "detach", "--pid", Integer.toString(p.pid()));
    }
    processes.clear();
  }

  /**
   * What was destroyed although held: a MIG device a pod holds that NVML no longer shows, a whole
   * GPU a pod holds that now has MIG on, a process NVML no longer lists.
   */
  List<String> destroyedWhileHeld(NvmlView nvml) {
    var problems = new ArrayList<String>();
    Set<String> migs = nvml.migUuids();
    for (Pod pod : pods) {
      String parent = pod.parent();
      if (parent.startsWith("MIG-") && !migs.contains(parent)) {
        problems.add(
            "pod "
                + pod.name()
                + " holds "
                + pod.deviceId()
                + " ("
                + pod.resource()
                + "), which NVML no longer shows");
      }
      for (NvmlView.Gpu gpu : nvml.gpus()) {
        if (gpu.uuid().equals(parent) && gpu.migCurrent()) {
          problems.add(
              "pod "
                  + pod.name()
                  + " holds the whole GPU "
                  + gpu.index()
                  + ", which now has MIG on");
        }
      }
    }
    for (Proc p : processes) {
      if (!nvml.gpus().get(p.gpu()).pids().contains(p.pid())) {
        problems.add("process " + p.pid() + " on GPU " + p.gpu() + " is gone");
      }
    }
    return problems;
  }

  private void publish() {
    var list = ListPodResourcesResponse.newBuilder();
    for (Pod pod : pods) {
      list.addPodResources(
          PodResources.newBuilder()
              .setNamespace("chaos")
              .setName(pod.name())
              .addContainers(
                  ContainerResources.newBuilder()
                      .setName("main")
                      .addDevices(
                          ContainerDevices.newBuilder()
                              .setResourceName(pod.resource())
                              .addDeviceIds(pod.deviceId()))));
    }
    podResources.answer(list.build());
  }
}
