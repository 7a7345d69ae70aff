package io.migd.rest;

import io.migd.api.rest.GpuLayout;
import io.migd.api.rest.LayoutRequest;
import io.migd.layout.GpuIndex;
import io.migd.layout.GpuTarget;
import io.migd.plan.Decision;
import io.migd.reconcile.ConfigLookup;
import io.migd.reconcile.Desired;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

/**
 * Reads the body of {@code PUT /api/v1/layout} into an intent, before anything touches NVML: strict
 * JSON (no unknown fields, duplicate keys or coerced scalars), then the intent it names, checked
 * against the config file and for what the body alone shows (counts, replicas, profile grammar).
 * Whether the intent can apply is decided by the reconciler's one decision path, as the loop
 * decides it; {@link #requireApplicable} turns that decision into the answer. Every failure is a
 * {@link RestProblem} that names what is wrong.
 */
final class LayoutRequests {
  /** The largest body accepted; a layout of every GPU of a node is a few hundred bytes. */
  static final int MAX_BODY_BYTES = 64 * 1024;

  /** More MIG devices than any GPU has compute slices: refused before anything is expanded. */
  static final int MAX_MIG_DEVICES = 64;

  /** More replicas than any device plugin should advertise for one GPU. */
  static final int MAX_REPLICAS = 1024;

  private static final JsonMapper STRICT =
      JsonMapper.builder()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
          .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .withCoercionConfig(
              LogicalType.Textual,
              c ->
                  c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                      .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                      .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
          .withCoercionConfig(
              LogicalType.Integer,
              c ->
                  c.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                      .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                      .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
          .withCoercionConfig(
              LogicalType.Boolean,
              c ->
                  c.setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                      .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail))
          .build();

  private final ConfigLookup configs;
  private final ConfigFileNow file;

  LayoutRequests(ConfigLookup configs, ConfigFileNow file) {
    this.configs = configs;
    this.file = file;
  }

  /** Reads the body: at most {@link #MAX_BODY_BYTES}, strict JSON, one {@link LayoutRequest}. */
  static LayoutRequest read(InputStream body, long contentLength) {
    if (contentLength > MAX_BODY_BYTES) {
      throw tooLarge(contentLength);
    }
    byte[] bytes;
    try {
      bytes = body.readNBytes(MAX_BODY_BYTES + 1);
    } catch (IOException e) {
      throw RestProblem.badRequest("the request body could not be read: " + e.getMessage());
    }
    if (bytes.length > MAX_BODY_BYTES) {
      throw tooLarge(bytes.length);
    }
    if (bytes.length == 0) {
      throw RestProblem.badRequest(
          "the body is empty; send {\"config\":\"NAME\"} or {\"gpus\":[...]}");
    }
    requireUtf8(bytes);
    try {
      LayoutRequest request = STRICT.readValue(bytes, LayoutRequest.class);
      if (request == null) {
        throw RestProblem.badRequest(
            "the body is null; send {\"config\":\"NAME\"} or {\"gpus\":[...]}");
      }
      return request;
    } catch (JacksonException e) {
      throw RestProblem.badRequest("malformed request body: " + describe(e));
    }
  }

  /**
   * Jackson's UTF-8 reader lets some invalid sequences through (an overlong {@code C0 AF} reads as
   * "/"), so the bytes are decoded strictly first: a name must arrive as the bytes that spell it.
   */
  private static void requireUtf8(byte[] bytes) {
    var decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    try {
      decoder.decode(in);
    } catch (CharacterCodingException e) {
      throw RestProblem.badRequest(
          "the body is not valid UTF-8 (at byte " + in.position() + "); JSON must be UTF-8");
    }
  }

  private static RestProblem tooLarge(long size) {
    return new RestProblem(
        HttpStatus.CONTENT_TOO_LARGE,
        "the body is over "
            + MAX_BODY_BYTES
            + " bytes ("
            + (size > MAX_BODY_BYTES ? "at least " + size : size)
            + ")");
  }

  /** Jackson's own sentence and where in the document, without its hints or class names. */
  static String describe(JacksonException e) {
    String message =
        Optional.ofNullable(e.getOriginalMessage())
            .orElse(e.getClass().getSimpleName())
            .replaceAll(" \\(but (could|might) if coercion[^)]*\\)", "")
            .replaceAll(" \\(class [\\w.$]+\\)", "")
            .replaceAll("`java\\.lang\\.(\\w+)`", "$1")
            .replaceAll("`?io\\.migd\\.api\\.rest\\.([\\w$]+)`?", "$1");
    var path = new StringBuilder();
    for (JacksonException.Reference reference : e.getPath()) {
      if (reference.getPropertyName() != null) {
        path.append(path.isEmpty() ? "" : ".").append(reference.getPropertyName());
      } else if (reference.getIndex() >= 0) {
        path.append('[').append(reference.getIndex()).append(']');
      }
    }
    message = printable(message, 500);
    return path.isEmpty() ? message : message + " (at " + printable(path.toString()) + ")";
  }

  /**
   * The intent the request names, checked against the config file and for what the body alone
   * shows: an unknown config, a negative GPU index, a profile name that breaks NVIDIA's grammar or
   * impossible numbers are 422. Whether the GPUs can hold it is decided with the loop's decision
   * ({@link #requireApplicable}).
   */
  Desired.Intent intent(LayoutRequest request) {
    if ((request.config() == null) == (request.gpus() == null)) {
      throw RestProblem.badRequest(
          "give exactly one of \"config\" (a config name) and \"gpus\" (an explicit layout)");
    }
    if (request.config() != null) {
      String name = request.config();
      if (configs.problem().isPresent()) {
        throw RestProblem.unprocessable(
            "the config file cannot be used: " + configs.problem().get());
      }
      if (configs.config(name).isEmpty()) {
        throw RestProblem.unprocessable(
            "unknown config \""
                + printable(name)
                + "\"; the config file has: "
                + String.join(", ", file.file().configNames()));
      }
      return new Desired.Intent.NamedConfig(name);
    }
    if (request.gpus().isEmpty()) {
      throw RestProblem.unprocessable("\"gpus\" is empty; name at least one GPU");
    }
    var seen = new HashSet<Integer>();
    var targets = new ArrayList<GpuTarget>();
    for (int i = 0; i < request.gpus().size(); i++) {
      GpuLayout gpu = request.gpus().get(i);
      if (gpu == null) {
        throw RestProblem.badRequest("gpus[" + i + "] is null; give a GPU layout");
      }
      targets.add(GpuLayoutTargets.target(gpu, i));
      if (!seen.add(gpu.gpu())) {
        throw RestProblem.unprocessable("GPU " + gpu.gpu() + " is given twice in \"gpus\"");
      }
    }
    return new Desired.Intent.Layout(targets);
  }

  /**
   * Refuses an intent the loop could not apply, from the decisions the reconciler made for it (the
   * same decision path as the loop's, so the planner runs once per GPU for both the check and the
   * answer): 422 when it is infeasible on some GPU it selects, naming the GPU and profile and what
   * would fit; 503 when an explicit layout names a GPU NVML failed on, naming the NVML call and
   * code. A named config that may select such a GPU is accepted: the loop applies it to the others.
   */
  static void requireApplicable(Desired.Intent intent, Map<GpuIndex, Decision> decisions) {
    var problems = new ArrayList<String>();
    decisions.forEach(
        (gpu, decision) -> {
          switch (decision) {
            case Decision.Infeasible(var reason) -> problems.add(reason);
            case Decision.Failed(var _, var reason) when names(intent, gpu) ->
                throw new RestProblem(
                    HttpStatus.SERVICE_UNAVAILABLE,
                    "GPU "
                        + gpu
                        + " could not be observed or decided ("
                        + reason
                        + "); a layout for it can be checked once NVML answers for it");
            case Decision.Failed _,
                Decision.InSync _,
                Decision.Change _,
                Decision.Blocked _,
                Decision.Unmanaged _ -> {}
          }
        });
    if (!problems.isEmpty()) {
      throw RestProblem.unprocessable(String.join("; ", problems));
    }
  }

  /** Whether the intent is an explicit layout for {@code gpu}. */
  private static boolean names(Desired.Intent intent, GpuIndex gpu) {
    return intent instanceof Desired.Intent.Layout(var targets)
        && targets.stream().anyMatch(t -> t.gpu().equals(gpu));
  }

  /** The text as a client may see it again: control characters escaped, at most 100 of them. */
  static String printable(String text) {
    return printable(text, 100);
  }

  /** The text with control characters escaped, at most {@code limit} characters of it. */
  static String printable(String text, int limit) {
    String cut = text.length() > limit ? text.substring(0, limit) + "..." : text;
    var out = new StringBuilder();
    cut.codePoints()
        .forEach(
            c -> {
              if (Character.isISOControl(c)) {
                out.append(String.format("\\u%04x", c));
              } else {
                out.appendCodePoint(c);
              }
            });
    return out.toString();
  }
}
