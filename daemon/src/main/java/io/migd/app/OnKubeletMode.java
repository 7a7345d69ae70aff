package io.migd.app;

import io.migd.reconcile.KubeletMode;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Which kubelet surface a configuration belongs to, read as {@link MigdProperties} reads {@code
 * migd.kubelet.mode} (so {@code dra}, {@code DRA} and {@code MIGD_KUBELET_MODE=dra} agree); the
 * device plugin when unset. {@code migd.kubelet.enabled=false} is checked beside it.
 */
abstract sealed class OnKubeletMode implements Condition
    permits OnKubeletMode.DevicePlugin, OnKubeletMode.Dra {
  private final KubeletMode mode;

  private OnKubeletMode(KubeletMode mode) {
    this.mode = mode;
  }

  @Override
  public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
    return Binder.get(context.getEnvironment())
            .bind("migd.kubelet.mode", KubeletMode.class)
            .orElse(KubeletMode.DEVICE_PLUGIN)
        == mode;
  }

  /** migd is the node's device plugin. */
  static final class DevicePlugin extends OnKubeletMode {
    DevicePlugin() {
      super(KubeletMode.DEVICE_PLUGIN);
    }
  }

  /** migd is the node's DRA driver. */
  static final class Dra extends OnKubeletMode {
    Dra() {
      super(KubeletMode.DRA);
    }
  }
}
