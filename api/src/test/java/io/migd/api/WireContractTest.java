package io.migd.api;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.protobuf.ProtoMethodDescriptorSupplier;
import io.migd.api.deviceplugin.v1beta1.DevicePluginGrpc;
import io.migd.api.deviceplugin.v1beta1.RegistrationGrpc;
import io.migd.api.dra.health.v1alpha1.DRAResourceHealthGrpc;
import io.migd.api.podresources.v1.PodResourcesListerGrpc;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The kubelet decodes our messages by field number and type and calls our methods by their full
 * gRPC path: the generated code must match the kubelet's published contracts row for row.
 */
class WireContractTest {

  private static final List<FileDescriptor> PROTOS =
      List.of(
          io.migd.api.deviceplugin.v1beta1.Api.getDescriptor(),
          io.migd.api.podresources.v1.Api.getDescriptor(),
          io.migd.api.dra.v1.Api.getDescriptor(),
          io.migd.api.dra.v1beta1.Api.getDescriptor(),
          io.migd.api.dra.registration.Api.getDescriptor(),
          io.migd.api.dra.health.v1alpha1.Api.getDescriptor());

  private static final List<io.grpc.ServiceDescriptor> SERVICES =
      List.of(
          RegistrationGrpc.getServiceDescriptor(),
          DevicePluginGrpc.getServiceDescriptor(),
          PodResourcesListerGrpc.getServiceDescriptor(),
          io.migd.api.dra.v1.DRAPluginGrpc.getServiceDescriptor(),
          io.migd.api.dra.v1beta1.DRAPluginGrpc.getServiceDescriptor(),
          io.migd.api.dra.registration.RegistrationGrpc.getServiceDescriptor(),
          DRAResourceHealthGrpc.getServiceDescriptor());

  @Test
  void everyMessageHasTheKubeletsFieldNumbersNamesAndTypes() throws IOException {
    var generated =
        PROTOS.stream()
            .flatMap(file -> file.getMessageTypes().stream())
            .flatMap(WireContractTest::messageRows)
            .toList();

    assertThat(generated)
        .containsExactlyInAnyOrderElementsOf(tableRows("field", "empty", "reserved"));
  }

  @Test
  void everyMethodHasTheKubeletsPathStreamingKindAndMessages() throws IOException {
    var generated =
        SERVICES.stream()
            .flatMap(service -> service.getMethods().stream())
            .map(WireContractTest::methodRow)
            .toList();

    assertThat(generated).containsExactlyInAnyOrderElementsOf(tableRows("rpc"));
  }

  @Test
  void everyEnumHasTheKubeletsValueNumbersAndNames() throws IOException {
    var generated =
        PROTOS.stream()
            .flatMap(file -> file.getEnumTypes().stream())
            .flatMap(
                type ->
                    type.getValues().stream()
                        .map(
                            value ->
                                row(
                                    "value",
                                    type.getFullName(),
                                    String.valueOf(value.getNumber()),
                                    value.getName())))
            .toList();

    assertThat(generated).containsExactlyInAnyOrderElementsOf(tableRows("value"));
  }

  @Test
  void servicesAreNamedAsTheKubeletCallsThem() {
    assertThat(RegistrationGrpc.SERVICE_NAME).isEqualTo("v1beta1.Registration");
    assertThat(DevicePluginGrpc.SERVICE_NAME).isEqualTo("v1beta1.DevicePlugin");
    assertThat(PodResourcesListerGrpc.SERVICE_NAME).isEqualTo("v1.PodResourcesLister");
    assertThat(io.migd.api.dra.v1.DRAPluginGrpc.SERVICE_NAME)
        .isEqualTo("k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin");
    assertThat(io.migd.api.dra.v1beta1.DRAPluginGrpc.SERVICE_NAME)
        .isEqualTo("k8s.io.kubelet.pkg.apis.dra.v1beta1.DRAPlugin");
    assertThat(io.migd.api.dra.registration.RegistrationGrpc.SERVICE_NAME)
        .isEqualTo("pluginregistration.Registration");
    assertThat(DRAResourceHealthGrpc.SERVICE_NAME).isEqualTo("v1alpha1.DRAResourceHealth");
    assertThat(PROTOS.stream().flatMap(file -> file.getServices().stream()))
        .extracting(ServiceDescriptor::getFullName)
        .containsExactlyInAnyOrder(
            "v1beta1.Registration",
            "v1beta1.DevicePlugin",
            "v1.PodResourcesLister",
            "k8s.io.kubelet.pkg.apis.dra.v1.DRAPlugin",
            "k8s.io.kubelet.pkg.apis.dra.v1beta1.DRAPlugin",
            "pluginregistration.Registration",
            "v1alpha1.DRAResourceHealth");
  }

  @Test
  void listAndWatchAndNodeWatchResourcesAreTheOnlyStreamingCalls() {
    assertThat(DevicePluginGrpc.getListAndWatchMethod().getType())
        .isEqualTo(MethodType.SERVER_STREAMING);
    assertThat(SERVICES.stream().flatMap(service -> service.getMethods().stream()))
        .filteredOn(method -> method.getType() != MethodType.UNARY)
        .extracting(io.grpc.MethodDescriptor::getFullMethodName)
        .containsExactlyInAnyOrder(
            "v1beta1.DevicePlugin/ListAndWatch", "v1alpha1.DRAResourceHealth/NodeWatchResources");
  }

  private static Stream<String> messageRows(Descriptor message) {
    var rows = new ArrayList<String>();
    var name = message.getFullName();
    if (message.getFields().isEmpty()) {
      rows.add(row("empty", name));
    }
    for (var field : message.getFields()) {
      rows.add(row("field", name, String.valueOf(field.getNumber()), field.getName(), type(field)));
    }
    for (var range : message.toProto().getReservedRangeList()) {
      for (int number = range.getStart(); number < range.getEnd(); number++) {
        rows.add(row("reserved", name, String.valueOf(number)));
      }
    }
    for (var reservedName : message.toProto().getReservedNameList()) {
      rows.add(row("reserved", name, reservedName));
    }
    return rows.stream();
  }

  private static String methodRow(io.grpc.MethodDescriptor<?, ?> method) {
    var schema = (ProtoMethodDescriptorSupplier) method.getSchemaDescriptor();
    var proto = Objects.requireNonNull(schema).getMethodDescriptor();
    return row(
        "rpc",
        method.getFullMethodName(),
        method.getType().name(),
        proto.getInputType().getFullName(),
        proto.getOutputType().getFullName());
  }

  private static String type(FieldDescriptor field) {
    if (field.isMapField()) {
      var entry = field.getMessageType();
      return "map<"
          + type(entry.findFieldByName("key"))
          + ", "
          + type(entry.findFieldByName("value"))
          + ">";
    }
    var base =
        switch (field.getType()) {
          case MESSAGE -> field.getMessageType().getFullName();
          case ENUM -> field.getEnumType().getFullName();
          default -> field.getType().name().toLowerCase(Locale.ROOT);
        };
    if (field.isRepeated()) {
      return "repeated " + base;
    }
    return field.toProto().getProto3Optional() ? "optional " + base : base;
  }

  private static String row(String... cells) {
    return String.join(" | ", cells);
  }

  /** The table's rows of the given kinds, cells trimmed; '#' lines are comments. */
  private static List<String> tableRows(String... kinds) throws IOException {
    try (var in = WireContractTest.class.getResourceAsStream("/kubelet-wire-contract.txt");
        var reader = new BufferedReader(new InputStreamReader(Objects.requireNonNull(in), UTF_8))) {
      var rows =
          reader
              .lines()
              .map(String::strip)
              .filter(line -> !line.isEmpty() && !line.startsWith("#"))
              .map(line -> Stream.of(line.split("\\|")).map(String::strip).toList())
              .filter(cells -> List.of(kinds).contains(cells.getFirst()))
              .map(cells -> cells.stream().collect(Collectors.joining(" | ")))
              .toList();
      assertThat(rows).as("rows of kinds %s in the table", List.of(kinds)).isNotEmpty();
      return rows;
    }
  }
}
