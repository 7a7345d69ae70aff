package io.migd.claims;

import io.migd.layout.GpuIndex;
import io.migd.ownership.ClaimKey;

/** What a restart ({@link ClaimPreparer#recover}) found and did, one sentence each. */
public sealed interface RecoveryFinding {
  /** The sentence for the log and the operator. */
  String sentence();

  /** The checkpoint was dropped: written under another boot, or corrupt. */
  record CheckpointDropped(String reason) implements RecoveryFinding {
    @Override
    public String sentence() {
      return "DRA checkpoint dropped: " + reason;
    }
  }

  /** A claim whose prepare had started was undone (the kubelet prepares it again). */
  record Undone(ClaimKey claim) implements RecoveryFinding {
    @Override
    public String sentence() {
      return "claim " + claim.label() + ": its prepare had not completed; undone";
    }
  }

  /** A completed claim's instance is still there and stays the claim's. */
  record Adopted(ClaimKey claim, String device, String migUuid) implements RecoveryFinding {
    @Override
    public String sentence() {
      return "claim " + claim.label() + ": device " + device + " (" + migUuid + ") adopted";
    }
  }

  /** A completed claim's instance is gone (its unprepare was cut short); the claim stays. */
  record Gone(ClaimKey claim, String device) implements RecoveryFinding {
    @Override
    public String sentence() {
      return "claim " + claim.label() + ": the instance of device " + device + " is gone";
    }
  }

  /** An idle instance of a dynamic GPU that no claim owns was destroyed. */
  record Destroyed(GpuIndex gpu, int gpuInstanceId, String profile) implements RecoveryFinding {
    @Override
    public String sentence() {
      return "GPU "
          + gpu
          + ": GPU instance "
          + gpuInstanceId
          + " ("
          + profile
          + ") was owned by no claim and idle; destroyed";
    }
  }

  /** An instance of a dynamic GPU that no claim owns is used by a process: kept. */
  record KeptInUse(GpuIndex gpu, int gpuInstanceId, String profile, String holders)
      implements RecoveryFinding {
    @Override
    public String sentence() {
      return "GPU "
          + gpu
          + ": GPU instance "
          + gpuInstanceId
          + " ("
          + profile
          + ") is owned by no claim but in use by"
          + holders
          + "; kept";
    }
  }

  /** Something could not be checked or undone now. */
  record Failed(String sentence) implements RecoveryFinding {}
}
