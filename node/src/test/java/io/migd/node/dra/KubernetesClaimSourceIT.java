package io.migd.node.dra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ListMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimList;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimListBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.migd.claims.AllocatedClaim;
import io.migd.claims.ClaimSource;
import io.migd.sim.AllocatedClaims;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** ResourceClaims read from the mock API server (CRUD mode), as a prepare needs them. */
@EnableKubernetesMockClient(crud = true, https = false)
class KubernetesClaimSourceIT {
  static final String NODE = "gpu-node-5";

  KubernetesMockServer server;
  KubernetesClient client;

  private ResourceClaim claim(String namespace, String name, String pool, boolean allocated) {
    var builder = claimBuilder(namespace, name, pool, allocated);
    ResourceClaim created =
        client
            .dynamicResourceAllocation()
            .v1()
            .resourceClaims()
            .inNamespace(namespace)
            .resource(builder.build())
            .create();
    if (allocated && created.getStatus() == null) {
      created.setStatus(builder.build().getStatus());
      created =
          client
              .dynamicResourceAllocation()
              .v1()
              .resourceClaims()
              .inNamespace(namespace)
              .resource(created)
              .updateStatus();
    }
    return created;
  }

  /** An allocated claim only the API server's answers hold: the CRUD store has none. */
  private static ResourceClaim unstored(String namespace, String name, String pool) {
    return claimBuilder(namespace, name, pool, true).build();
  }

  private static ResourceClaimBuilder claimBuilder(
      String namespace, String name, String pool, boolean allocated) {
    var builder = AllocatedClaims.requested(namespace, name);
    if (allocated) {
      builder
          .withNewStatus()
          .withNewAllocation()
          .withNewDevices()
          .addNewResult()
          .withRequest("gpu/small")
          .withDriver(TestPools.DRIVER)
          .withPool(pool)
          .withDevice("gpu-0-mig-1g5gb-19-3")
          .endResult()
          .addNewResult()
          .withRequest("nic")
          .withDriver("nic.example.com")
          .withPool(pool)
          .withDevice("eth1")
          .withAdminAccess(true)
          .endResult()
          .addNewConfig()
          .withSource("FromClaim")
          .withRequests("nic")
          .withNewOpaque()
          .withDriver("nic.example.com")
          .withParameters(Map.of("mtu", 9000))
          .endOpaque()
          .endConfig()
          .addNewConfig()
          .withSource("FromClass")
          .withNewOpaque()
          .withDriver(TestPools.DRIVER)
          .withParameters(MPS)
          .endOpaque()
          .endConfig()
          .endDevices()
          .endAllocation()
          .addNewReservedFor()
          .withResource("pods")
          .withName(name + "-pod")
          .withUid("pod-uid-" + name)
          .endReservedFor()
          .endStatus();
    }
    return builder;
  }

  /** NVIDIA's parameters, read back as the plain tree the core decodes. */
  private static final Map<String, Object> MPS =
      Map.of(
          "apiVersion",
          "resource.nvidia.com/v1beta1",
          "kind",
          "GpuConfig",
          "sharing",
          Map.of("strategy", "MPS", "mpsConfig", Map.of("defaultActiveThreadPercentage", 50)));

  @Test
  void readsTheAllocationOfAClaim() {
    ResourceClaim created = claim("ml", "train", NODE, true);

    var source = new KubernetesClaimSource(client, TestPools.DRIVER, NODE);

    assertThat(source.get("ml", "train"))
        .hasValue(
            new AllocatedClaim(
                created.getMetadata().getUid(),
                "ml",
                "train",
                true,
                List.of(
                    new AllocatedClaim.Result(
                        "gpu/small", TestPools.DRIVER, NODE, "gpu-0-mig-1g5gb-19-3", false),
                    new AllocatedClaim.Result("nic", "nic.example.com", NODE, "eth1", true)),
                List.of(
                    new AllocatedClaim.Config(
                        false, List.of("nic"), "nic.example.com", Map.of("mtu", 9000)),
                    new AllocatedClaim.Config(true, List.of(), TestPools.DRIVER, MPS)),
                List.of(new AllocatedClaim.Consumer("pods", "train-pod", "pod-uid-train"))));
    assertThat(source.get("ml", "absent")).isEmpty();
  }

  @Test
  void readsTheSharesOfAClaimAsTheSchedulerWritesThem() {
    var shareId = "6de5d941-c79d-4a8a-ba10-668351620525";
    var consumed = Map.of("compute", 20L, "memory", 16L << 30);
    var builder =
        AllocatedClaims.sharesBuilder(
            "ml",
            "infer",
            TestPools.DRIVER,
            NODE,
            Map.of("memory", 15L << 30),
            List.of(new AllocatedClaims.Share("gpu-0-shared", shareId, consumed)));
    var created =
        client
            .dynamicResourceAllocation()
            .v1()
            .resourceClaims()
            .inNamespace("ml")
            .resource(builder.build())
            .create();
    created.setStatus(builder.build().getStatus());
    client
        .dynamicResourceAllocation()
        .v1()
        .resourceClaims()
        .inNamespace("ml")
        .resource(created)
        .updateStatus();

    var claim =
        new KubernetesClaimSource(client, TestPools.DRIVER, NODE).get("ml", "infer").orElseThrow();

    assertThat(claim.results())
        .containsExactly(
            new AllocatedClaim.Result(
                AllocatedClaims.REQUEST,
                TestPools.DRIVER,
                NODE,
                "gpu-0-shared",
                false,
                AllocatedClaims.SHARE_CLASS,
                Optional.of(shareId),
                new TreeMap<>(consumed)));
    assertThat(
            client
                .dynamicResourceAllocation()
                .v1()
                .resourceClaims()
                .inNamespace("ml")
                .withName("infer")
                .get()
                .getSpec()
                .getDevices()
                .getRequests()
                .getFirst()
                .getExactly()
                .getCapacity()
                .getRequests())
        .containsEntry("memory", new Quantity(Long.toString(15L << 30)));
  }

  @Test
  void readsAClaimNotYetAllocated() {
    claim("ml", "waiting", NODE, false);

    assertThat(new KubernetesClaimSource(client, TestPools.DRIVER, NODE).get("ml", "waiting"))
        .hasValueSatisfying(
            c -> {
              assertThat(c.allocated()).isFalse();
              assertThat(c.results()).isEmpty();
            });
  }

  @Test
  void listsOnlyTheClaimsAllocatedFromThisNodesPool() {
    claim("ml", "here", NODE, true);
    claim("web", "also-here", NODE, true);
    claim("ml", "elsewhere", "gpu-node-6", true);
    claim("ml", "waiting", NODE, false);

    var claims = new KubernetesClaimSource(client, TestPools.DRIVER, NODE).listAllocatedToPool();

    assertThat(claims)
        .extracting(c -> c.namespace() + "/" + c.name())
        .containsExactlyInAnyOrder("ml/here", "web/also-here");
  }

  private static final String CLAIMS = "/apis/resource.k8s.io/v1/resourceclaims";
  private static final String FIRST_PAGE = CLAIMS + "?limit=" + KubernetesClaimSource.PAGE;
  private static final String SECOND_PAGE =
      CLAIMS + "?continue=page-2&limit=" + KubernetesClaimSource.PAGE;
  private static final String EXPIRED = "the provided continue parameter is too old";

  /** The API server answers the first page with {@code claims}, and more to come on page 2. */
  private void firstPage(ResourceClaim... claims) {
    server.expect().get().withPath(FIRST_PAGE).andReturn(200, page("page-2", claims)).always();
  }

  private static ResourceClaimList page(String next, ResourceClaim... claims) {
    return new ResourceClaimListBuilder()
        .withMetadata(new ListMetaBuilder().withContinue(next).build())
        .withItems(claims)
        .build();
  }

  @Test
  void listsEveryPageAPageAtATime() {
    var here = unstored("ml", "here", NODE);
    var elsewhere = unstored("ml", "elsewhere", "gpu-node-6");
    var alsoHere = unstored("web", "also-here", NODE);
    firstPage(here, elsewhere);
    server.expect().get().withPath(SECOND_PAGE).andReturn(200, page(null, alsoHere)).always();

    var claims = new KubernetesClaimSource(client, TestPools.DRIVER, NODE).listAllocatedToPool();

    assertThat(claims)
        .extracting(c -> c.namespace() + "/" + c.name())
        .containsExactly("ml/here", "web/also-here");
  }

  @Test
  void listsAgainFromTheStartWhenTheContinueTokenExpired() {
    var here = unstored("ml", "here", NODE);
    var alsoHere = unstored("web", "also-here", NODE);
    firstPage(here);
    server.expect().get().withPath(SECOND_PAGE).andReturn(410, EXPIRED).once();
    server.expect().get().withPath(SECOND_PAGE).andReturn(200, page(null, alsoHere)).once();

    var claims = new KubernetesClaimSource(client, TestPools.DRIVER, NODE).listAllocatedToPool();

    assertThat(claims)
        .extracting(c -> c.namespace() + "/" + c.name())
        .containsExactly("ml/here", "web/also-here");
  }

  @Test
  void saysWhatFailedWhenTheContinueTokenKeepsExpiring() {
    firstPage(unstored("ml", "here", NODE));
    server.expect().get().withPath(SECOND_PAGE).andReturn(410, EXPIRED).always();

    var source = new KubernetesClaimSource(client, TestPools.DRIVER, NODE);

    assertThatThrownBy(source::listAllocatedToPool)
        .isInstanceOf(ClaimSource.ClaimReadException.class)
        .hasMessageStartingWith(
            "listing the ResourceClaims of every namespace from the API server failed");
  }

  @Test
  void saysWhatFailedWhenTheApiServerErrs() {
    server
        .expect()
        .get()
        .withPath("/apis/resource.k8s.io/v1/namespaces/ml/resourceclaims/broken")
        .andReturn(500, "etcdserver: request timed out")
        .always();
    // one retry, as migd's client makes (NodeConfiguration), not the client's default of ten
    var config =
        new ConfigBuilder(client.getConfiguration()).withRequestRetryBackoffLimit(1).build();
    try (var asMigd = new KubernetesClientBuilder().withConfig(config).build()) {
      var source = new KubernetesClaimSource(asMigd, TestPools.DRIVER, NODE);

      assertThatThrownBy(() -> source.get("ml", "broken"))
          .isInstanceOf(ClaimSource.ClaimReadException.class)
          .hasMessageStartingWith("reading ResourceClaim ml/broken from the API server failed");
    }
  }
}
