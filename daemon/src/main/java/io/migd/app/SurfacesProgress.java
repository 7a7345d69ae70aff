package io.migd.app;

import io.migd.execute.ProgressListener;
import io.migd.layout.GpuIndex;
import io.migd.nvml.NvmlException;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The daemon's progress listeners ({@link Surfaces#progress()}) for the claims' executor: a claim's
 * plan is told to the same surfaces as a reconcile's (the metrics, the layout progress). Looked up
 * at each event, since the surfaces are built after the DRA node that prepares claims.
 */
final class SurfacesProgress implements ProgressListener {
  private final ObjectProvider<Surfaces> surfaces;

  SurfacesProgress(ObjectProvider<Surfaces> surfaces) {
    this.surfaces = surfaces;
  }

  @Override
  public void planMade(GpuIndex gpu, Plan plan) {
    listener().planMade(gpu, plan);
  }

  @Override
  public void planAbandoned(GpuIndex gpu, Plan plan) {
    listener().planAbandoned(gpu, plan);
  }

  @Override
  public void stepStarted(Step step) {
    listener().stepStarted(step);
  }

  @Override
  public void stepDone(Step step) {
    listener().stepDone(step);
  }

  @Override
  public void stepFailed(Step step, NvmlException cause) {
    listener().stepFailed(step, cause);
  }

  private ProgressListener listener() {
    Surfaces known = surfaces.getIfAvailable();
    return known == null ? ProgressListener.NONE : known.progress();
  }
}
