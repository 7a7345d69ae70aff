package io.migd.cdi;

import tools.jackson.databind.JsonNode;

/**
 * The container edits every GPU container needs, whatever its devices: the driver's libraries and
 * binaries, the toolkit's hooks, the control device nodes. They come from the generated GPU spec
 * ({@link GpuCdiSpec}); each claim's spec carries a copy, so a claim's containers need no other
 * spec.
 */
@FunctionalInterface
public interface CommonEdits {
  /**
   * The spec-level {@code containerEdits} of the GPU spec, a copy.
   *
   * @throws IllegalStateException when no spec was generated yet, saying why
   */
  JsonNode current();
}
