package io.migd.app;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WithdrawThenListClaimsTest {
  private static final String DEVICE = "gpu-0-mig-1g10gb-19-6";
  private final List<String> events = new ArrayList<>();

  private static PoolContent pool(String... devices) {
    var list = new ArrayList<PoolDevice>();
    for (String name : devices) {
      list.add(
          new PoolDevice(
              name,
              new TreeMap<>(),
              new TreeMap<>(),
              List.of(),
              List.of(),
              new DeviceOrigin.StaticSlice(new GpuIndex(0), "GPU-0", 13, 0, "MIG-" + name)));
    }
    return new PoolContent(
        "gpu.nvidia.com",
        "node",
        List.of(
            new PoolSlice(
                "000-gpu.nvidia.com-node", new PoolSlice.Devices(new GpuIndex(0), list))));
  }

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
  void withdrawsTheDevicesWaitsForTheApiServerThenNamesTheClaimsHoldingThem() {
    var published = new AtomicReference<>(Optional.of(pool(DEVICE, "gpu-0-mig-1g10gb-19-5")));
    var guard =
        new WithdrawThenListClaims(
            names -> {
              events.add("withdrew " + names);
              // the publisher writes the pool without them a little later
              published.set(Optional.of(pool("gpu-0-mig-1g10gb-19-5")));
            },
            published::get,
            claims(claim("train", DEVICE), claim("other", "gpu-1")),
            Duration.ofSeconds(30));

    assertThat(guard.claimsHolding(List.of(DEVICE))).containsExactly("ml/train");
    assertThat(events).containsExactly("withdrew [" + DEVICE + "]", "listed claims");
  }

  @Test
  void anApiServerThatDoesNotCatchUpStillGetsItsClaimsListedAfterTheWait() {
    var guard =
        new WithdrawThenListClaims(
            names -> events.add("withdrew " + names),
            () -> Optional.of(pool(DEVICE)),
            claims(),
            Duration.ofMillis(200));

    assertThat(guard.claimsHolding(List.of(DEVICE))).isEmpty();
    assertThat(events).containsExactly("withdrew [" + DEVICE + "]", "listed claims");
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
    var published = new AtomicReference<>(Optional.of(dynamicPool));
    var guard =
        new WithdrawThenListClaims(
            names -> {
              events.add("withdrew " + names);
              published.set(Optional.of(pool()));
            },
            published::get,
            claims(claim("waiting", pending), claim("other", "gpu-1")),
            Duration.ofSeconds(10),
            () -> dynamicPool);

    assertThat(guard.claimsOfDynamicDevices(gpu)).containsExactly("ml/waiting");
    assertThat(events).containsExactly("withdrew [" + pending + "]", "listed claims");
  }
}
