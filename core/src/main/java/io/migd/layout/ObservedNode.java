package io.migd.layout;

import java.util.List;

/** Every GPU of the node as NVML shows it now, in index order. */
public record ObservedNode(List<ObservedGpu> gpus) {
  /** Copies the list. */
  public ObservedNode {
    gpus = List.copyOf(gpus);
  }
}
