package io.migd.api.rest;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The body of {@code PUT /api/v1/layout}: either a named config of the config file ({@code
 * {"config":"all-1g.10gb"}}) or an explicit layout of some GPUs ({@code {"gpus":[...]}}), never
 * both.
 *
 * @param config the name of a config in the config file, or null
 * @param gpus the GPUs to lay out (others are left as they are), or null
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LayoutRequest(String config, List<GpuLayout> gpus) {}
