package io.migd.api.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;

/**
 * What one GPU should look like, in the words of a mig-parted config item: {@code
 * {"gpu":0,"migEnabled":true,"migDevices":{"3g.40gb":2}}} or {@code
 * {"gpu":1,"timeSlicing":{"replicas":4}}}. Boxed fields, so a missing value is told apart from a
 * zero.
 *
 * @param gpu the GPU's NVML index
 * @param migEnabled the MIG mode; null means true when {@code migDevices} is given, else false
 * @param migDevices how many of each MIG profile; GPU-instance or compute-instance names
 * @param timeSlicing time-sliced replicas of a GPU without MIG, or null for the whole GPU
 * @param mps MPS replicas of a GPU without MIG (not with {@code timeSlicing}), or null
 * @param sharing how the MIG slices of each profile named in {@code migDevices} are shared: {@code
 *     {"3g.20gb":{"mps":{"replicas":2}},"1g.5gb":{"timeSlicing":{"replicas":3}}}}, or null
 * @param dynamic {@code true} for a dynamic GPU ({@code migd.kubelet.mode=dra} only): MIG enabled,
 *     every profile published at every placement, instances made when claims are prepared; not with
 *     {@code migDevices}, {@code timeSlicing}, {@code mps} or {@code sharing}. Null or false:
 *     static
 * @param shares {@code true} to publish each device of the GPU also as a shareable twin, shared by
 *     claims with MPS memory and compute limits ({@code migd.kubelet.mode=dra} only): with {@code
 *     "dynamic": true}, or on a whole GPU ({@code "migEnabled": false}) without {@code timeSlicing}
 *     or {@code mps}. Null or false: no shares
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GpuLayout(
    Integer gpu,
    Boolean migEnabled,
    Map<String, Integer> migDevices,
    TimeSlicing timeSlicing,
    Mps mps,
    Map<String, SliceSharing> sharing,
    Boolean dynamic,
    Boolean shares) {

  /** A static layout (no {@code dynamic}). */
  public GpuLayout(
      Integer gpu,
      Boolean migEnabled,
      Map<String, Integer> migDevices,
      TimeSlicing timeSlicing,
      Mps mps,
      Map<String, SliceSharing> sharing) {
    this(gpu, migEnabled, migDevices, timeSlicing, mps, sharing, null, null);
  }

  /** A layout without MPS or sharing of slices. */
  public GpuLayout(
      Integer gpu, Boolean migEnabled, Map<String, Integer> migDevices, TimeSlicing timeSlicing) {
    this(gpu, migEnabled, migDevices, timeSlicing, null, null);
  }

  /**
   * Time-slicing of a GPU without MIG, or of a MIG slice.
   *
   * @param replicas how many replicas the GPU is advertised as
   */
  public record TimeSlicing(Integer replicas) {}

  /**
   * MPS sharing of a GPU without MIG, or of a MIG slice.
   *
   * @param replicas how many replicas, 1 to 48
   */
  public record Mps(Integer replicas) {}

  /**
   * How the slices of one profile are shared: exactly one of the two.
   *
   * @param timeSlicing time-sliced replicas
   * @param mps MPS replicas
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  public record SliceSharing(TimeSlicing timeSlicing, Mps mps) {}
}
