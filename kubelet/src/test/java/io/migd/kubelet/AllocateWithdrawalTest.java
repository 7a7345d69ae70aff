package io.migd.kubelet;

import static io.migd.kubelet.SampleNode.MIG_1G;
import static io.migd.kubelet.SampleNode.MIG_A;
import static io.migd.kubelet.SampleNode.node;
import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import io.migd.api.deviceplugin.v1beta1.AllocateResponse;
import io.migd.devices.AllocationGrace;
import io.migd.devices.Inventory;
import io.migd.mps.MpsPaths;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * An {@code Allocate} racing a plan that destroys its slice (issue 20, found by the chaos runner):
 * the plan withdraws the slice from the inventory, then reads usage again before it destroys
 * anything. Whatever the interleaving, either that read sees the allocation or the kubelet is
 * refused; never both missed, which let a running pod's slice be destroyed.
 */
class AllocateWithdrawalTest {
  @Test
  void refusesASliceWithdrawnBeforeItsAllocationWasRecorded() {
    var grace = new AllocationGrace(Clock.systemUTC());
    var current = new AtomicReference<>(node());
    var planSawAllocation = new AtomicBoolean();
    // the plan's withdrawal and its second read of usage land right after Allocate's first look
    // at the inventory
    Supplier<Inventory> inventory =
        () -> {
          Inventory seen = current.get();
          if (seen.find(MIG_1G, MIG_A).isPresent()) {
            current.set(seen.without(d -> d.id().equals(MIG_A)));
            planSawAllocation.set(grace.within(Duration.ofMinutes(5)).containsKey(MIG_A));
          }
          return seen;
        };
    var service =
        new DevicePluginService(MIG_1G, inventory, true, new MpsPaths(Path.of("/run/mps")), grace);
    var answer = new Answer();

    service.allocate(DevicePluginServiceIT.request(List.of(MIG_A)), answer);

    assertThat(planSawAllocation.get() || answer.error.get() != null)
        .as("the plan saw the allocation, or the kubelet was refused (answer: %s)", answer)
        .isTrue();
    assertThat(Status.fromThrowable(answer.error.get()).getCode())
        .isEqualTo(Status.Code.UNAVAILABLE);
  }

  private static final class Answer implements StreamObserver<AllocateResponse> {
    final AtomicReference<AllocateResponse> response = new AtomicReference<>();
    final AtomicReference<Throwable> error = new AtomicReference<>();

    @Override
    public void onNext(AllocateResponse value) {
      response.set(value);
    }

    @Override
    public void onError(Throwable t) {
      error.set(t);
    }

    @Override
    public void onCompleted() {}

    @Override
    public String toString() {
      return error.get() != null ? error.get().toString() : String.valueOf(response.get());
    }
  }
}
