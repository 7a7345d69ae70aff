package io.migd.reconcile;

import io.migd.layout.DeviceNames;
import io.migd.layout.LiveComputeInstance;
import io.migd.layout.LiveGpuInstance;
import io.migd.layout.ObservedGpu;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;

/**
 * The pool's names of the static devices a plan removes (DESIGN section 12 "Names"): the whole GPU
 * when MIG is enabled, and every MIG device of an instance it destroys, so the {@link
 * StaticDeviceGuard} can be asked about them.
 */
final class RemovedDevices {
  private RemovedDevices() {}

  /** The names of the devices {@code plan} removes from {@code gpu} as observed before it runs. */
  static List<String> of(ObservedGpu gpu, Plan plan) {
    var names = new LinkedHashSet<String>();
    for (Step step : plan.steps()) {
      switch (step) {
        case Step.EnableMig _ -> {
          if (!gpu.migMode().current()) {
            names.add(wholeGpu(gpu.minor()));
          }
        }
        case Step.DestroyGpuInstance(var _, var giId) ->
            instance(gpu, giId)
                .ifPresent(
                    gi -> {
                      names.add(migDevice(gpu.minor(), gi));
                      gi.computeInstances().stream()
                          .filter(ci -> ci.profile().hasComputeInstancePart())
                          .forEach(ci -> names.add(computeInstance(gpu.minor(), gi, ci)));
                    });
        case Step.DestroyComputeInstance(var _, var giId, var ciId) ->
            instance(gpu, giId)
                .ifPresent(
                    gi ->
                        gi.computeInstances().stream()
                            .filter(ci -> ci.id() == ciId)
                            .forEach(
                                ci ->
                                    names.add(
                                        ci.profile().hasComputeInstancePart()
                                            ? computeInstance(gpu.minor(), gi, ci)
                                            : migDevice(gpu.minor(), gi))));
        case Step.DisableMig _, Step.CreateGpuInstance _, Step.CreateComputeInstance _ -> {}
      }
    }
    return new ArrayList<>(names);
  }

  private static Optional<LiveGpuInstance> instance(ObservedGpu gpu, int giId) {
    return gpu.gpuInstances().stream().filter(gi -> gi.id() == giId).findFirst();
  }

  private static String wholeGpu(int minor) {
    return DeviceNames.wholeGpu(minor);
  }

  private static String migDevice(int minor, LiveGpuInstance gi) {
    return DeviceNames.mig(minor, gi.profile().toString(), gi.profileId(), gi.placement().start());
  }

  private static String computeInstance(int minor, LiveGpuInstance gi, LiveComputeInstance ci) {
    return DeviceNames.computeInstance(
        minor,
        ci.profile().toString(),
        gi.profileId(),
        gi.placement().start(),
        ci.placement().start());
  }
}
