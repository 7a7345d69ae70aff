package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.migd.execute.ListenerFailures;
import io.migd.execute.ProgressListener;
import io.migd.execute.ProgressListeners;
import io.migd.layout.GpuIndex;
import io.migd.nvml.NvmlException;
import io.migd.nvml.NvmlReturn;
import io.migd.plan.Plan;
import io.migd.plan.Step;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.support.StaticListableBeanFactory;

/**
 * A claim's plan reaches the daemon's progress surfaces once they exist (they are built after the
 * DRA node); before, its events go nowhere and the claim's plan runs all the same.
 */
class SurfacesProgressTest {
  private static final GpuIndex GPU = new GpuIndex(3);

  private final List<String> told = new ArrayList<>();

  private final ProgressListener recorder =
      new ProgressListener() {
        @Override
        public void planMade(GpuIndex gpu, Plan plan) {
          told.add("planMade " + gpu.value());
        }

        @Override
        public void planAbandoned(GpuIndex gpu, Plan plan) {
          told.add("planAbandoned " + gpu.value());
        }

        @Override
        public void stepStarted(Step step) {
          told.add("stepStarted " + step);
        }

        @Override
        public void stepDone(Step step) {
          told.add("stepDone " + step);
        }

        @Override
        public void stepFailed(Step step, NvmlException cause) {
          told.add("stepFailed " + step + " " + cause.code());
        }
      };

  private static void claimPlan(ProgressListener listener) {
    Step enable = new Step.EnableMig(GPU);
    Plan plan = new Plan(List.of(enable));
    listener.planMade(GPU, plan);
    listener.stepStarted(enable);
    listener.stepDone(enable);
    listener.stepFailed(enable, new NvmlException("nvmlDeviceSetMigMode", NvmlReturn.IN_USE, ""));
    listener.planAbandoned(GPU, plan);
  }

  @Test
  void eventsReachTheSurfacesOnceTheyExistAndGoNowhereBefore() {
    var beans = new StaticListableBeanFactory();
    var progress = new SurfacesProgress(beans.getBeanProvider(Surfaces.class));

    claimPlan(progress);
    assertThat(told).as("no surfaces yet").isEmpty();

    beans.addBean(
        "surfaces",
        new Surfaces(
            new ProgressListeners(
                List.of(new ProgressListeners.Named("recorder", recorder)), ListenerFailures.NONE),
            null));
    claimPlan(progress);

    String step = new Step.EnableMig(GPU).toString();
    assertThat(told)
        .containsExactly(
            "planMade 3",
            "stepStarted " + step,
            "stepDone " + step,
            "stepFailed " + step + " IN_USE",
            "planAbandoned 3");
  }
}
