package io.migd.plan;

/**
 * What a step does, by its wire name: the {@code action} of a plan step in the REST API and {@code
 * migd plan -o json}, and the {@code action} label of {@code migd_step_duration_seconds}, which
 * also times the GPU reset and node reboot that apply a pending MIG mode.
 */
public enum StepAction {
  ENABLE_MIG("enableMig"),
  DISABLE_MIG("disableMig"),
  CREATE_GPU_INSTANCE("createGpuInstance"),
  DESTROY_GPU_INSTANCE("destroyGpuInstance"),
  CREATE_COMPUTE_INSTANCE("createComputeInstance"),
  DESTROY_COMPUTE_INSTANCE("destroyComputeInstance"),
  RESET_GPU("resetGpu"),
  REBOOT("reboot");

  private final String label;

  StepAction(String label) {
    this.label = label;
  }

  /** The wire name. */
  public String label() {
    return label;
  }

  /** The action a plan step performs. */
  public static StepAction of(Step step) {
    return switch (step) {
      case Step.EnableMig _ -> ENABLE_MIG;
      case Step.DisableMig _ -> DISABLE_MIG;
      case Step.CreateGpuInstance _ -> CREATE_GPU_INSTANCE;
      case Step.DestroyGpuInstance _ -> DESTROY_GPU_INSTANCE;
      case Step.CreateComputeInstance _ -> CREATE_COMPUTE_INSTANCE;
      case Step.DestroyComputeInstance _ -> DESTROY_COMPUTE_INSTANCE;
    };
  }
}
