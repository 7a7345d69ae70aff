package io.migd.app;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.migd.cdi.CapabilityNodes;
import io.migd.cdi.ClaimCdiSpecs;
import io.migd.cdi.GpuCdiRefresh;
import io.migd.cdi.GpuCdiSpec;
import io.migd.claims.ClaimNode;
import io.migd.claims.ClaimPreparer;
import io.migd.claims.ClaimSettings;
import io.migd.devices.DraTaints;
import io.migd.devices.KubeletUsage;
import io.migd.devices.XidWatcher;
import io.migd.dra.DraPlugin;
import io.migd.dra.DraPluginSettings;
import io.migd.dra.GatedClaims;
import io.migd.dra.HealthPublisher;
import io.migd.dra.PreparingClaims;
import io.migd.execute.Backoff;
import io.migd.execute.Executor;
import io.migd.kubelet.PodResourcesClient;
import io.migd.layout.ModelSource;
import io.migd.layout.Usage;
import io.migd.metrics.DraAllocationCollector;
import io.migd.metrics.DraMetrics;
import io.migd.metrics.DraShareCollector;
import io.migd.metrics.MeteredClaims;
import io.migd.node.dra.DraCapabilities;
import io.migd.node.dra.DraCapabilityProbe;
import io.migd.node.dra.KubernetesClaimSource;
import io.migd.node.dra.KubernetesPodSource;
import io.migd.node.dra.ProbedCapabilities;
import io.migd.node.dra.PublishSettings;
import io.migd.node.dra.ResourceSlicePublisher;
import io.migd.node.dra.ShareOverlapEvents;
import io.migd.node.dra.UnsupportedKubernetesException;
import io.migd.ownership.ClaimedDevices;
import io.migd.pool.GpuFactsReader;
import io.migd.pool.PoolSurface;
import io.migd.profiles.GpuModelCatalog;
import io.migd.reconcile.DeviceOwnership;
import io.migd.reconcile.NodeSnapshot;
import io.migd.reconcile.ReconcileLoop;
import io.migd.reconcile.StaticDeviceGuard;
import io.migd.reconcile.UsageSource;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.DependsOn;

/**
 * migd as the node's DRA driver ({@code migd.kubelet.mode=dra}, docs/contract.md section 6): the
 * kubelet plugin (registration, DRA and health services), the pool published as ResourceSlices,
 * prepare and unprepare with their checkpoint and CDI specs, health as device taints, and the DRA
 * metrics. Needs {@code NODE_NAME} and an API server of Kubernetes 1.34 or later (refused at start
 * otherwise, or when it answers later, exit 2).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty(name = "migd.kubelet.enabled", matchIfMissing = true)
@Conditional(OnKubeletMode.Dra.class)
@DependsOn({"stateLock", "nvmlSession"})
class DraConfiguration {
  private static final Logger log = LoggerFactory.getLogger(DraConfiguration.class);

  /**
   * What the API server takes: probed at start, and in the background while it does not answer; too
   * old a server refuses the start, or ends migd when it answers later.
   */
  @Bean(destroyMethod = "close")
  ProbedCapabilities draCapabilities(
      ObjectProvider<KubernetesClient> client,
      MigdProperties properties,
      @Value("${NODE_NAME:}") String nodeName,
      ConfigurableApplicationContext context) {
    KubernetesClient kubernetes = client.getIfAvailable();
    if (kubernetes == null || nodeName.isBlank()) {
      throw new UnsupportedKubernetesException(
          "migd.kubelet.mode=dra needs NODE_NAME (the node's name, from the downward API's"
              + " spec.nodeName) and the API server: the node's pool is published there as"
              + " ResourceSlices and claims are read from there");
    }
    var probe = new DraCapabilityProbe(kubernetes, properties.dra().driverName(), nodeName.strip());
    boolean partitionable = properties.dra().partitionable();
    boolean shares = properties.dra().shares();
    var probed =
        ProbedCapabilities.start(
            () -> probe.probe(partitionable, shares), ProbedCapabilities.Settings.DEFAULT);
    probed.whenRefused(refused -> context.publishEvent(new StartRefused(context, refused)));
    return probed;
  }

  @Bean(destroyMethod = "close")
  ResourceSlicePublisher resourceSlicePublisher(
      KubernetesClient client, MigdProperties properties, @Value("${NODE_NAME}") String nodeName) {
    return ResourceSlicePublisher.start(
        client,
        nodeName.strip(),
        new PublishSettings(
            properties.dra().qps(),
            properties.dra().burst(),
            new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(1))));
  }

  /**
   * The kubelet's PodResources: a node switched to DRA mode without draining still has pods the
   * device plugin gave MIG slices; their instances are in use (DESIGN section 12, "Who owns what").
   */
  @Bean(destroyMethod = "close")
  PodResourcesClient draPodResources(MigdProperties properties) {
    return new PodResourcesClient(properties.kubelet().podResourcesSocket());
  }

  /**
   * The reconcile's usage in dra mode (static plans, {@code GET /api/v1/gpus}): NVML's processes
   * and the device-plugin pods PodResources lists. Nothing calls {@code Allocate} in dra mode, so
   * there is no grace to keep.
   */
  @Bean
  KubeletUsage kubeletUsage(
      UsageSource processUsage, PodResourcesClient podResources, MigdProperties properties) {
    return DevicePluginPods.usage(processUsage, podResources, properties.kubelet());
  }

  @Bean
  KubernetesClaimSource claimSource(
      KubernetesClient client, MigdProperties properties, @Value("${NODE_NAME}") String nodeName) {
    return new KubernetesClaimSource(client, properties.dra().driverName(), nodeName.strip());
  }

  /** The pods a claim is reserved for, read when it is prepared and at the claim check. */
  @Bean
  KubernetesPodSource podSource(KubernetesClient client) {
    return new KubernetesPodSource(client);
  }

  /** The Warning Event on a claim a prepare found allocated over a shared device. */
  @Bean
  ShareOverlapEvents shareOverlapEvents(
      KubernetesClient client, @Value("${NODE_NAME}") String nodeName) {
    return new ShareOverlapEvents(client, nodeName.strip());
  }

  /** The prepared shares per twin ({@code migd_dra_shares} and sums), read at scrape time. */
  @Bean
  DraShareCollector draShares(PrometheusRegistry prometheus, DraNode node) {
    var collector = new DraShareCollector(node.claimed());
    prometheus.register(collector);
    return collector;
  }

  /** {@code migd_device_allocation_info} of the prepared claims' devices, read at scrape time. */
  @Bean
  DraAllocationCollector draAllocations(PrometheusRegistry prometheus, DraNode node) {
    var collector = new DraAllocationCollector(node.claimed());
    prometheus.register(collector);
    return collector;
  }

  @Bean
  DraTaints draTaints() {
    return new DraTaints();
  }

  @Bean(destroyMethod = "close")
  HealthPublisher draHealth() {
    return new HealthPublisher(HealthPublisher.RESEND);
  }

  @Bean
  DraMetrics draMetrics(MeterRegistry registry, ObjectProvider<DraNode> node) {
    return new DraMetrics(
        registry,
        () -> {
          DraNode known = node.getIfAvailable();
          return known == null ? 0 : known.claimed().all().size();
        });
  }

  /**
   * The pool and the preparer, made together since each reads the other: prepare checks claims
   * against the pool as published, and the pool marks what prepared claims own.
   */
  @Bean(destroyMethod = "")
  DraNode draNode(
      NvmlSession session,
      GpuModelCatalog catalog,
      NodeSnapshot snapshot,
      MigdProperties properties,
      @Value("${NODE_NAME}") String nodeName,
      ProbedCapabilities capabilities,
      ResourceSlicePublisher publisher,
      KubernetesClaimSource claims,
      KubernetesPodSource pods,
      DraTaints taints,
      HealthPublisher health,
      DraMetrics metrics,
      GpuCdiSpec gpuCdiSpec,
      ObjectProvider<Surfaces> surfaces,
      PodResourcesClient podResources,
      ShareOverlapEvents overlapEvents) {
    var dra = properties.dra();
    String node = nodeName.strip();
    var owned = new AtomicReference<ClaimedDevices>(ClaimedDevices.NONE);
    ClaimedDevices claimed = () -> owned.get().claims();
    var facts =
        new GpuFactsReader(
            session.nvml(), new ModelSource(session.nvml(), catalog), properties.sysfsRoot());
    var pool =
        new PoolSurface(
            new PoolSurface.Settings(dra.driverName(), node),
            facts::read,
            snapshot::latest,
            claimed,
            taints,
            new PoolPublications(publisher::publish, metrics, health, claimed));
    var outcomes = new LatestOutcome();
    var preparer =
        new ClaimPreparer(
            claims,
            new ClaimNode(
                session.nvml(),
                catalog,
                new Executor(session.nvml(), new SurfacesProgress(surfaces)),
                DevicePluginPods.usage(observed -> Usage.NONE, podResources, properties.kubelet()),
                pool::current,
                pool::reconciled,
                outcomes::dynamic),
            new ClaimCdiSpecs(
                properties.cdi().dir(), new CapabilityNodes(dra.procRoot()), gpuCdiSpec),
            new ClaimSettings(
                dra.driverName(),
                node,
                properties.stateDir(),
                ClaimSettings.bootIdUnder(dra.procRoot()),
                dra.reclaimAfter(),
                dra.sharesNamespaces() == ShareNamespaces.SINGLE),
            new ObservedClaimEvents(
                metrics,
                snapshot::observeAgain,
                pool::rebuild,
                pool::withdrawShares,
                overlapEvents::warn),
            pods,
            DraSharingWiring.sharing(properties, session.nvml()));
    owned.set(preparer.claimed());
    capabilities.whenKnown(
        known ->
            pool.publishing(
                new PoolSurface.Publishing(
                    known.dynamicDevices(), !known.deviceTaints(), known.shares())));
    return new DraNode(pool, preparer, outcomes);
  }

  /**
   * The GPU spec generated again after each reconcile that changed the node's devices, before the
   * pool hears of it: a claim's spec copies its common edits.
   */
  @Bean
  GpuCdiRefresh gpuCdiRefresh(GpuCdiSpec spec) {
    return new GpuCdiRefresh(spec);
  }

  /** The prepared claims' devices, for the reconcile and {@code GET /api/v1/gpus}. */
  @Bean
  ClaimedDevices claimedDevices(DraNode node) {
    return node.claimed();
  }

  /**
   * The reconcile in dra mode: a prepared claim's device is in use, and a static device a claim is
   * allocated is never removed (the claims are listed before such a plan).
   */
  @Bean
  DeviceOwnership draOwnership(
      MigdProperties properties,
      DraNode node,
      KubernetesClaimSource claims,
      ResourceSlicePublisher publisher,
      ProbedCapabilities capabilities,
      ObjectProvider<ReconcileLoop> loop) {
    StaticDeviceGuard guard =
        new WithdrawThenListClaims(
            node.pool()::withdraw,
            publisher::awaitPublished,
            names -> publisher.serverLists(properties.dra().driverName(), names),
            claims,
            WithdrawThenListClaims.PUBLISH_WAIT,
            node.pool()::current);
    // dynamic GPUs wait for nothing while the probe has not answered; a late answer reconciles
    // again (one known now is the first reconcile's)
    if (capabilities.known().isEmpty()) {
      capabilities.whenKnown(known -> loop.ifAvailable(ReconcileLoop::trigger));
    }
    return DeviceOwnership.dra(
        node.claimed(),
        guard,
        () ->
            capabilities
                .known()
                .filter(known -> !known.dynamicDevices())
                .map(DraCapabilities::why));
  }

  /**
   * The kubelet plugin, served and registered at start (before the first reconcile ends, and before
   * the API server has answered the probe: an unprepare works at once, a prepare before the probe's
   * answer or on a GPU not reconciled yet is answered a retryable error).
   */
  @Bean(destroyMethod = "close")
  DraPlugin draPlugin(
      MigdProperties properties,
      DraNode node,
      ProbedCapabilities capabilities,
      HealthPublisher health,
      DraMetrics metrics) {
    var dra = properties.dra();
    var settings =
        new DraPluginSettings(
            dra.driverName(),
            dra.registryDir(),
            dra.pluginDirectory(),
            DraPluginSettings.DEFAULT_SOCKET_CHECK);
    var plugin =
        DraPlugin.start(
            settings,
            new MeteredClaims(
                new GatedClaims(
                    new PoolHeldClaims(new PreparingClaims(node.preparer()), node.pool()),
                    capabilities::waiting),
                metrics),
            health);
    log.info(
        "DRA plugin driver={} registration={} dra={}",
        dra.driverName(),
        settings.registrationSocket(),
        settings.draSocket());
    return plugin;
  }

  /** XIDs taint devices; the taints go after the recovery period, or at a reset. */
  @Bean(initMethod = "start", destroyMethod = "close")
  XidWatcher draXidWatcher(
      NvmlSession session, DraTaints taints, DraNode node, NodeSnapshot snapshot) {
    return new XidWatcher(
        session.nvml(),
        new XidTaintSink(taints, snapshot::observeAgain, node.pool()::rebuild, Clock.systemUTC()),
        new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30)));
  }

  /** The recovery of tainted devices, and the periodic claim check, on one thread of their own. */
  @Bean(destroyMethod = "close")
  DraTimers draTimers(
      NvmlSession session, MigdProperties properties, DraTaints taints, DraNode node) {
    Duration recovery = properties.health().recoveryPeriod();
    var answers = new GpuAnswers(session.nvml());
    return DraTimers.start(
        KubeletConfiguration.healthCheckInterval(recovery),
        new TaintRecovery(
            taints, recovery, answers::answers, node.pool()::rebuild, Clock.systemUTC()),
        properties.dra().claimCheck(),
        () ->
            node.preparer()
                .claimCheck()
                .forEach(answer -> log.info("DRA claim check: {}", answer)));
  }
}
