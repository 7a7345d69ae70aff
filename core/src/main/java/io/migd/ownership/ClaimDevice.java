package io.migd.ownership;

import io.migd.layout.GpuIndex;
import io.migd.layout.LiveGpuInstance;
import io.migd.profiles.Placement;
import java.util.Collection;
import java.util.Objects;

/**
 * A device a claim was given or is being given, and what exists of it: the one definition of "a
 * whole GPU", of which GPU instance a claim owns ({@link #owns}) and of which memory slices it
 * holds ({@link #overlaps}). The pool, the reconcile, the checkpoint and the CDI specs all read it.
 */
public sealed interface ClaimDevice {
  /** The device's name in the pool. */
  String name();

  /** The GPU it is on. */
  GpuIndex gpu();

  /** That GPU's UUID, {@code GPU-...}. */
  String gpuUuid();

  /**
   * Whether it owns GPU instance {@code gi} as NVML shows it: a made instance by its id, a planned
   * placement the instance at exactly its profile and placement (made by a prepare that has not
   * recorded it yet, or left by one cut short).
   */
  boolean owns(LiveGpuInstance gi);

  /**
   * Whether it holds memory slices of {@code placement}, with {@code instances} the GPU instances
   * NVML shows on its GPU: a whole GPU holds all of them, a planned placement its own, a made
   * instance those of its GPU instance (none when NVML no longer shows it).
   */
  boolean overlaps(Placement placement, Collection<LiveGpuInstance> instances);

  /** The device's UUID: the MIG device's, or the GPU's for a whole GPU; empty when not made. */
  String deviceUuid();

  /** A GPU handed out whole. */
  record Whole(String name, GpuIndex gpu, String gpuUuid) implements ClaimDevice {
    /** Checks every part is there. */
    public Whole {
      Objects.requireNonNull(name);
      Objects.requireNonNull(gpu);
      Objects.requireNonNull(gpuUuid);
    }

    @Override
    public boolean owns(LiveGpuInstance gi) {
      return false;
    }

    @Override
    public boolean overlaps(Placement placement, Collection<LiveGpuInstance> instances) {
      return true;
    }

    @Override
    public String deviceUuid() {
      return gpuUuid;
    }
  }

  /**
   * A placement of a dynamic GPU whose instance the claim's prepare makes: recorded before NVML is
   * touched, so a restart can undo what a crash left.
   *
   * @param giProfileId the GPU-instance profile
   * @param placement the GPU instance's placement, in memory slices
   */
  record Planned(String name, GpuIndex gpu, String gpuUuid, int giProfileId, Placement placement)
      implements ClaimDevice {
    /** Checks every part is there. */
    public Planned {
      Objects.requireNonNull(name);
      Objects.requireNonNull(gpu);
      Objects.requireNonNull(gpuUuid);
      Objects.requireNonNull(placement);
    }

    @Override
    public boolean owns(LiveGpuInstance gi) {
      return gi.profileId() == giProfileId && gi.placement().equals(placement);
    }

    @Override
    public boolean overlaps(Placement other, Collection<LiveGpuInstance> instances) {
      return placement.overlaps(other);
    }

    @Override
    public String deviceUuid() {
      return "";
    }

    /** This placement with its instance made. */
    public Made made(int gpuInstanceId, int computeInstanceId, String migUuid) {
      return new Made(
          name, gpu, gpuUuid, new MigInstance(gpuInstanceId, computeInstanceId, migUuid));
    }
  }

  /** A MIG device that exists: a static slice handed out as it is, or a placement made. */
  record Made(String name, GpuIndex gpu, String gpuUuid, MigInstance instance)
      implements ClaimDevice {
    /** Checks every part is there. */
    public Made {
      Objects.requireNonNull(name);
      Objects.requireNonNull(gpu);
      Objects.requireNonNull(gpuUuid);
      Objects.requireNonNull(instance);
    }

    @Override
    public boolean owns(LiveGpuInstance gi) {
      return gi.id() == instance.gpuInstanceId();
    }

    @Override
    public boolean overlaps(Placement placement, Collection<LiveGpuInstance> instances) {
      return instances.stream().anyMatch(gi -> owns(gi) && gi.placement().overlaps(placement));
    }

    @Override
    public String deviceUuid() {
      return instance.migUuid();
    }
  }

  /**
   * A MIG device's instances: its GPU instance, the compute instance in it, and the MIG device's
   * UUID.
   */
  record MigInstance(int gpuInstanceId, int computeInstanceId, String migUuid) {
    /** Checks the ids and the UUID. */
    public MigInstance {
      Objects.requireNonNull(migUuid);
      if (gpuInstanceId < 0 || computeInstanceId < 0) {
        throw new IllegalArgumentException(
            "GPU-instance id "
                + gpuInstanceId
                + " and compute-instance id "
                + computeInstanceId
                + " must be at least 0");
      }
    }
  }
}
