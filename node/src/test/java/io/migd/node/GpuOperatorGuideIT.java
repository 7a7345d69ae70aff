package io.migd.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The kubectl commands of docs/gpu-operator.md, read from the guide and made as the same requests
 * against the mock API server in CRUD mode: the ConfigMap copy keeps the data and nothing of the
 * operator's metadata, and the rollback removes exactly what migd writes on a Node.
 */
@EnableKubernetesMockClient(crud = true)
class GpuOperatorGuideIT {
  private static final Pattern GET_DATA =
      Pattern.compile(
          "kubectl -n (\\S+) get configmap (\\S+) -o jsonpath='\\{\\.data\\.([^}]+)\\}' > (\\S+)");
  private static final Pattern CREATE =
      Pattern.compile("kubectl -n (\\S+) create configmap (\\S+) --from-file=(\\S+)");
  private static final Pattern REMOVE =
      Pattern.compile("kubectl (label|annotate) nodes -l (\\S+)=(\\S+) (.+)");
  private static final JsonMapper JSON = JsonMapper.builder().build();

  private static String guide;

  KubernetesClient client;

  @BeforeAll
  static void readGuide() throws IOException {
    guide = Files.readString(Path.of("..", "docs", "gpu-operator.md"));
  }

  @Test
  void theConfigMapCopyKeepsTheDataAndNoneOfTheOperatorsMetadata() {
    Matcher get = only(GET_DATA);
    Matcher create = only(CREATE);
    String namespace = get.group(1);
    String key = get.group(3).replace("\\.", ".");
    assertThat(create.group(1)).as("both in the operator's namespace").isEqualTo(namespace);
    assertThat(create.group(3)).as("--from-file reads what get wrote").isEqualTo(get.group(4));
    assertThat(Path.of(create.group(3)).getFileName().toString())
        .as("--from-file names the key after the file: the key the chart mounts")
        .isEqualTo(key)
        .isEqualTo("config.yaml");
    assertThat(guide).contains("--set migd.existingConfigMap.name=" + create.group(2));
    String config = "version: v1\nmig-configs:\n  all-disabled:\n    - devices: all\n";
    client
        .configMaps()
        .inNamespace(namespace)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(get.group(2))
                .withNamespace(namespace)
                .addNewOwnerReference()
                .withApiVersion("nvidia.com/v1")
                .withKind("ClusterPolicy")
                .withName("cluster-policy")
                .withUid("6a2f9c1e-0000-4000-8000-000000000001")
                .withController(true)
                .endOwnerReference()
                .endMetadata()
                .withData(Map.of(key, config))
                .build())
        .create();

    // kubectl get -o jsonpath='{.data.config\.yaml}': the value only
    String written =
        client.configMaps().inNamespace(namespace).withName(get.group(2)).get().getData().get(key);
    // kubectl create configmap NAME --from-file=FILE: the file's name is the key
    client
        .configMaps()
        .inNamespace(namespace)
        .resource(
            new ConfigMapBuilder()
                .withNewMetadata()
                .withName(create.group(2))
                .withNamespace(namespace)
                .endMetadata()
                .withData(Map.of(create.group(3), written))
                .build())
        .create();

    ConfigMap copy = client.configMaps().inNamespace(namespace).withName(create.group(2)).get();
    assertThat(copy.getData()).containsExactly(Map.entry("config.yaml", config));
    assertThat(copy.getMetadata().getOwnerReferences()).isNullOrEmpty();
    assertThat(copy.getMetadata().getUid())
        .isNotEqualTo(
            client
                .configMaps()
                .inNamespace(namespace)
                .withName(get.group(2))
                .get()
                .getMetadata()
                .getUid());
  }

  @Test
  void theRollbackRemovesExactlyWhatMigdWritesOnTheNodes() {
    var removals = new HashMap<String, Set<String>>();
    Matcher m = REMOVE.matcher(guide);
    String selectorKey = null;
    String selectorValue = null;
    while (m.find()) {
      selectorKey = m.group(2);
      selectorValue = m.group(3);
      removals.put(
          m.group(1),
          Arrays.stream(m.group(4).trim().split("\\s+"))
              .peek(k -> assertThat(k).as("a removal ends with -").endsWith("-"))
              .map(k -> k.substring(0, k.length() - 1))
              .collect(Collectors.toSet()));
    }
    assertThat(removals.get("label")).containsExactly(NodeStateWriter.STATE_LABEL);
    assertThat(removals.get("annotate"))
        .containsExactlyInAnyOrder(
            NodeStateWriter.REASON_ANNOTATION, NodeStateWriter.INTENT_ANNOTATION);
    for (String name : List.of("gpu-1", "gpu-2")) {
      TestCluster.createNode(
          client,
          name,
          Map.of(
              selectorKey,
              selectorValue,
              NodeStateWriter.STATE_LABEL,
              "success",
              "nvidia.com/mig.config",
              "all-balanced"),
          Map.of(
              NodeStateWriter.REASON_ANNOTATION,
              "every GPU matches",
              NodeStateWriter.INTENT_ANNOTATION,
              "rest, generation 3",
              "example.com/owner",
              "team-ml"));
    }

    // kubectl label/annotate nodes -l K=V KEY-: one merge patch per node, KEY set to null
    for (Node node : client.nodes().withLabel(selectorKey, selectorValue).list().getItems()) {
      var labels = new HashMap<String, Object>();
      removals.get("label").forEach(k -> labels.put(k, null));
      var annotations = new HashMap<String, Object>();
      removals.get("annotate").forEach(k -> annotations.put(k, null));
      client
          .nodes()
          .withName(node.getMetadata().getName())
          .patch(
              PatchContext.of(PatchType.JSON_MERGE),
              JSON.writeValueAsString(
                  Map.of("metadata", Map.of("labels", labels, "annotations", annotations))));
    }

    // the mock keeps a key a merge patch set to null, with a null value: absent on a real server
    for (Node node : client.nodes().list().getItems()) {
      assertThat(present(node.getMetadata().getLabels()))
          .doesNotContainKey(NodeStateWriter.STATE_LABEL)
          .containsEntry("nvidia.com/mig.config", "all-balanced");
      assertThat(present(node.getMetadata().getAnnotations()))
          .containsOnlyKeys("example.com/owner");
    }
  }

  private static Map<String, String> present(Map<String, String> values) {
    var present = new HashMap<String, String>();
    values.forEach(
        (k, v) -> {
          if (v != null) {
            present.put(k, v);
          }
        });
    return present;
  }

  private static Matcher only(Pattern pattern) {
    Matcher m = pattern.matcher(guide);
    assertThat(m.find()).as("docs/gpu-operator.md has %s", pattern).isTrue();
    var found = m.toMatchResult();
    assertThat(m.find()).as("once").isFalse();
    Matcher again = pattern.matcher(found.group());
    again.matches();
    return again;
  }
}
