package io.migd.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.migd.layout.GpuIndex;
import io.migd.layout.Usage;
import io.migd.plan.Decision;
import io.migd.plan.Planner;
import io.migd.plan.PlannerBound;
import io.migd.plan.testing.SharedPlacementModel;
import io.migd.reconcile.Desired;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

/**
 * A layout whose placement search is cut by {@code migd.planner.max-steps} before any layout is
 * found (issue 19) is answered {@code 503} naming the cut: the target may well fit, so it is never
 * {@code 422}.
 */
class SearchCutAnswerTest {
  private static final GpuIndex GPU0 = new GpuIndex(0);

  @Test
  void answersServiceUnavailableNamingTheCut() {
    var model = SharedPlacementModel.model(32, 19);
    var target = SharedPlacementModel.oneOfEach(GPU0);
    Decision decision =
        Planner.decide(
            target,
            SharedPlacementModel.migOn(model, GPU0),
            Usage.NONE,
            model,
            PlannerBound.DEFAULT);

    var problem =
        catchThrowableOfType(
            RestProblem.class,
            () ->
                LayoutRequests.requireApplicable(
                    new Desired.Intent.Layout(List.of(target)), Map.of(GPU0, decision)));

    assertThat(problem).isNotNull();
    assertThat(problem.status()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
    assertThat(problem.getMessage())
        .isEqualTo(
            "GPU 0 could not be observed or decided (GPU 0 (SHARED-20x19): placement search cut"
                + " after 200000 steps); a layout for it can be checked once NVML answers for it");
  }
}
