package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.claims.AllocatedClaim;
import io.migd.claims.ClaimSource;
import io.migd.layout.GpuIndex;
import io.migd.pool.DeviceOrigin;
import io.migd.pool.PoolContent;
import io.migd.pool.PoolDevice;
import io.migd.pool.PoolSlice;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class WithdrawThenListClaimsTest {
  private static final String DEVICE = "gpu-0-mig-1g10gb-19-6";
  private final List<String> events = new ArrayList<>();

  private ClaimSource claims(AllocatedClaim... allocated) {
    return new ClaimSource() {
      @Override
      public Optional<AllocatedClaim> get(String namespace, String name) {
        return Optional.empty();
      }

      @Override
      public List<AllocatedClaim> listAllocatedToPool() {
        events.add("listed claims");
        return List.of(allocated);
      }
    };
  }

  private static AllocatedClaim claim(String name, String device) {
    return new AllocatedClaim(
        "uid-" + name,
        "ml",
        name,
        true,
        List.of(new AllocatedClaim.Result("gpu", "gpu.nvidia.com", "node", device, false)),
        List.of(),
        List.of());
  }

  @Test
  void withdrawsTheDevicesWaitsForTheirPublicationThenNamesTheClaimsHoldingThem() {
    var guard =
        new WithdrawThenListClaims(
            names -> {
              events.add("withdrew " + names);
              return OptionalLong.of(7);
            },
            (number, wait) -> {
              events.add("awaited publication " + number);
              return true;
            },
            names -> true,
            claims(claim("train", DEVICE), claim("other", "gpu-1")),
            Duration.ofSeconds(30));

    assertThat(guard.claimsHolding(List.of(DEVICE))).containsExactly("ml/train");
    assertThat(events)
        .containsExactly("withdrew [" + DEVICE + "]", "awaited publication 7", "listed claims");
  }

  /**
   * The first reconcile after a start: no pool of this run exists, the previous run's slices still
   * list the device. Before, "nothing published" passed for "withdrawn" and the claims were listed
   * at once; now the plan waits (the guard fails, which blocks it until the next reconcile).
   */
  @Test
  void nothingPublishedYetIsNotWithdrawnWhileThePreviousRunsSlicesListTheDevice() {
    var guard =
        new WithdrawThenListClaims(
            names -> OptionalLong.empty(),
            (number, wait) -> true,
            names -> names.contains(DEVICE),
            claims(),
            Duration.ZERO);

    assertThatThrownBy(() -> guard.claimsHolding(List.of(DEVICE)))
        .hasMessageContaining("no pool is published yet")
        .hasMessageContaining(DEVICE);
    assertThat(events).doesNotContain("listed claims");
  }

  /** A first start: no slice on the server lists the device, so none can be allocated it anew. */
  @Test
  void nothingPublishedYetAndNothingOnTheServerListingTheDeviceGoesOnToTheClaims() {
    var guard =
        new WithdrawThenListClaims(
            names -> OptionalLong.empty(),
            (number, wait) -> false,
            names -> false,
            claims(claim("train", DEVICE)),
            Duration.ZERO);

    assertThat(guard.claimsHolding(List.of(DEVICE))).containsExactly("ml/train");
  }

  @Test
  void anApiServerThatDoesNotTakeThePoolWithoutTheDevicesMakesThePlanWait() {
    var guard =
        new WithdrawThenListClaims(
            names -> OptionalLong.of(3),
            (number, wait) -> false,
            names -> true,
            claims(),
            Duration.ofMillis(200));

    assertThatThrownBy(() -> guard.claimsHolding(List.of(DEVICE)))
        .hasMessageContaining("does not hold the pool without [" + DEVICE + "]");
    assertThat(events).doesNotContain("listed claims");
  }

  @Test
  void aGpuTurningStaticWithdrawsItsDynamicDevicesThenNamesTheClaimsAllocatedOneOfThem() {
    var gpu = new GpuIndex(0);
    String pending = "gpu-0-mig-1g10gb-19-3";
    PoolContent dynamicPool =
        new PoolContent(
            "gpu.nvidia.com",
            "node",
            List.of(
                new PoolSlice(
                    "000-gpu.nvidia.com-node",
                    new PoolSlice.Devices(
                        gpu,
                        List.of(
                            new PoolDevice(
                                pending,
                                new TreeMap<>(),
                                new TreeMap<>(),
                                List.of(),
                                List.of(),
                                new DeviceOrigin.DynamicPlacement(
                                    gpu, "GPU-0", "1g.10gb", 19, 3, 1)))))));
    var guard =
        new WithdrawThenListClaims(
            names -> {
              events.add("withdrew " + names);
              return OptionalLong.of(2);
            },
            (number, wait) -> number == 2,
            names -> true,
            claims(claim("waiting", pending), claim("other", "gpu-1")),
            Duration.ofSeconds(10),
            () -> dynamicPool);

    assertThat(guard.claimsOfDynamicDevices(gpu)).containsExactly("ml/waiting");
    assertThat(events).containsExactly("withdrew [" + pending + "]", "listed claims");
  }
}
