package io.migd.app;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.migd.reconcile.MisconfiguredPathException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/** Each path property refused as its use requires, naming it; a node that can work passes. */
class PathPropertiesTest {
  @TempDir static Path node;

  /**
   * @param properties the properties over a working node's, each value a path under the node
   *     ({@code <node>} replaced)
   * @param message the start of the refusal
   */
  record Case(String name, Map<String, String> properties, String message) {
    @Override
    public String toString() {
      return name;
    }
  }

  @BeforeEach
  void aNode() throws IOException {
    for (String dir : List.of("sys", "device-plugins", "driver-root", "cdi", "proc/sys/kernel")) {
      Files.createDirectories(node.resolve(dir));
    }
    Files.writeString(node.resolve("a-file"), "x");
    Files.writeString(node.resolve("nvidia-cdi-hook"), "#!/bin/sh\n");
    Files.createDirectories(node.resolve("proc/sys/kernel/random"));
    Files.writeString(node.resolve("proc/sys/kernel/random/boot_id"), "b0\n");
    Files.createDirectories(node.resolve("no-boot-id/sys"));
  }

  static List<Case> cases() {
    Map<String, String> dra =
        Map.of(
            "migd.kubelet.mode", "dra",
            "migd.cdi.enabled", "true",
            "migd.dra.registry-dir", "<node>/registry",
            "migd.dra.plugin-dir", "<node>/plugins/gpu.nvidia.com",
            "migd.dra.proc-root", "<node>/proc");
    Function<Map<String, String>, Map<String, String>> inDra =
        over -> {
          var all = new HashMap<>(dra);
          all.putAll(over);
          return all;
        };
    return List.of(
        new Case(
            "sysfs root missing",
            Map.of("migd.sysfs-root", "<node>/nowhere"),
            "migd.sysfs-root: <node>/nowhere does not exist"),
        new Case(
            "PodResources socket is a directory",
            Map.of("migd.kubelet.pod-resources-socket", "<node>/cdi"),
            "migd.kubelet.pod-resources-socket: <node>/cdi is a directory, not the kubelet's"),
        new Case(
            "device plugin dir is a file",
            Map.of("migd.kubelet.device-plugin-dir", "<node>/a-file"),
            "migd.kubelet.device-plugin-dir: <node>/a-file is not a directory"),
        new Case(
            "CDI dir relative",
            Map.of("migd.cdi.enabled", "true", "migd.cdi.dir", "cdi"),
            "migd.cdi.dir: cdi is not an absolute path"),
        new Case(
            "CDI dir under a file",
            Map.of("migd.cdi.enabled", "true", "migd.cdi.dir", "<node>/a-file/cdi"),
            "migd.cdi.dir: <node>/a-file/cdi cannot be created: <node>/a-file is not a directory"),
        new Case(
            "MPS root relative",
            Map.of("migd.mps.root", "run/mps"),
            "migd.mps.root: run/mps is not an absolute path"),
        new Case(
            "MPS root a file",
            Map.of("migd.mps.root", "<node>/a-file"),
            "migd.mps.root: <node>/a-file is not a directory"),
        new Case(
            "DRA registry dir is a file",
            inDra.apply(Map.of("migd.dra.registry-dir", "<node>/a-file")),
            "migd.dra.registry-dir: <node>/a-file is not a directory"),
        new Case(
            "DRA plugin dir relative",
            inDra.apply(Map.of("migd.dra.plugin-dir", "plugins/gpu")),
            "migd.dra.plugin-dir: plugins/gpu is not an absolute path"),
        new Case(
            "DRA proc root missing",
            inDra.apply(Map.of("migd.dra.proc-root", "<node>/nowhere")),
            "migd.dra.proc-root: <node>/nowhere does not exist"),
        new Case(
            "DRA proc root without a boot id",
            inDra.apply(Map.of("migd.dra.proc-root", "<node>/no-boot-id")),
            "migd.dra.proc-root: <node>/no-boot-id/sys/kernel/random/boot_id cannot be read"));
  }

  @ParameterizedTest
  @MethodSource("cases")
  void refusesNamingTheProperty(Case c) {
    assertThatThrownBy(() -> PathProperties.check(bind(c.properties())))
        .isInstanceOf(MisconfiguredPathException.class)
        .hasMessageStartingWith(c.message().replace("<node>", node.toString()))
        .hasMessageNotContaining("\n");
  }

  @Test
  void passesANodeThatCanWork() {
    assertThatCode(() -> PathProperties.check(bind(Map.of()))).doesNotThrowAnyException();
    assertThatCode(
            () ->
                PathProperties.check(
                    bind(
                        Map.of(
                            "migd.kubelet.mode", "dra",
                            "migd.cdi.enabled", "true",
                            "migd.dra.registry-dir", "<node>/not-yet/registry",
                            "migd.dra.plugin-dir", "<node>/not-yet/plugins/gpu.nvidia.com",
                            "migd.dra.proc-root", "<node>/proc"))))
        .as("directories migd creates under a writable one")
        .doesNotThrowAnyException();
  }

  @Test
  void checksNoKubeletPathWithoutTheKubelet() {
    assertThatCode(
            () ->
                PathProperties.check(
                    bind(
                        Map.of(
                            "migd.kubelet.enabled", "false",
                            "migd.sysfs-root", "<node>/nowhere",
                            "migd.kubelet.device-plugin-dir", "<node>/a-file"))))
        .doesNotThrowAnyException();
  }

  /** The properties of a node that works, with {@code over} on top. */
  private static MigdProperties bind(Map<String, String> over) {
    var properties = new HashMap<String, String>();
    properties.put("migd.sysfs-root", "<node>/sys");
    properties.put("migd.kubelet.device-plugin-dir", "<node>/device-plugins");
    properties.put("migd.kubelet.pod-resources-socket", "<node>/pod-resources/kubelet.sock");
    properties.put("migd.cdi.container-driver-root", "<node>/driver-root");
    properties.put("migd.cdi.hook-path", "<node>/nvidia-cdi-hook");
    properties.put("migd.cdi.dir", "<node>/cdi");
    properties.put("migd.mps.root", "<node>/mps");
    properties.putAll(over);
    properties.replaceAll((key, value) -> value.replace("<node>", node.toString()));
    return new Binder(new MapConfigurationPropertySource(properties))
        .bindOrCreate("migd", MigdProperties.class);
  }
}
