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
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record GpuLayout(
    Integer gpu, Boolean migEnabled, Map<String, Integer> migDevices, TimeSlicing timeSlicing) {

  /**
   * Time-slicing of a GPU without MIG.
   *
   * @param replicas how many replicas the GPU is advertised as
   */
  public record TimeSlicing(Integer replicas) {}
}
