package io.migd.api.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The intent: where it came from, a config name or an explicit layout, and its generation.
 *
 * @param source {@code none}, {@code label}, {@code rest} or {@code file}
 * @param config the config named, or null
 * @param gpus the explicit layout, or null
 * @param generation increases on every change of the intent
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DesiredLayout(String source, String config, List<GpuLayout> gpus, long generation) {}
