package io.migd.app;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.headers.Header;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import java.util.List;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.ViewControllerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The OpenAPI document of {@code /api/v1} at {@code /v3/api-docs} (springdoc builds the paths from
 * the controllers; the rest is here) and the Swagger UI at {@code /swagger-ui/index.html}, which
 * {@code /api} and {@code /swagger-ui} lead to.
 */
@Configuration(proxyBeanMethods = false)
class ApiDocsConfiguration implements WebMvcConfigurer {
  static final String SWAGGER_UI = "/swagger-ui/index.html";

  /**
   * Server {@code /}: the document is the same whatever host and port it is fetched from (springdoc
   * would put the request's own URL there), and the Swagger UI calls the daemon that serves it.
   */
  @Bean
  OpenAPI migdOpenApi() {
    return new OpenAPI()
        .info(
            new Info()
                .title("migd REST API")
                .version("v1")
                .description(
                    "The GPU partitioning of one node: its GPUs and MIG slices, the named configs,"
                        + " the desired and current layout, and setting a new one. Errors are RFC"
                        + " 9457 problem details. Every call needs a bearer token unless the daemon"
                        + " runs with migd.auth.mode=none (loopback only) or, for GET,"
                        + " migd.auth.anonymous-read=true."))
        .servers(List.of(new Server().url("/").description("this daemon")))
        .components(
            new Components()
                .addSecuritySchemes(
                    "bearer",
                    new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP)
                        .scheme("bearer")
                        .description(
                            "migd.auth.mode=token: the token of migd.auth.token-file;"
                                + " kubernetes: a Kubernetes token allowed to update this node")))
        .addSecurityItem(new SecurityRequirement().addList("bearer"));
  }

  /**
   * The refusals every call of {@code /api/v1} may get besides its own answers: {@code 401} and
   * {@code 403} from the authentication, {@code 503} with {@code Retry-After} while migd cannot
   * answer yet.
   */
  @Bean
  OpenApiCustomizer refusalsOfEveryCall() {
    return api ->
        api.getPaths()
            .values()
            .forEach(
                path ->
                    path.readOperations()
                        .forEach(
                            operation ->
                                operation
                                    .getResponses()
                                    .addApiResponse(
                                        "401",
                                        problem(
                                            "no bearer token, or one migd does not accept (header"
                                                + " WWW-Authenticate: Bearer)"))
                                    .addApiResponse(
                                        "403",
                                        problem(
                                            "migd.auth.mode=kubernetes: the token's user may not"
                                                + " update this node"))
                                    .addApiResponse(
                                        "503",
                                        problem(
                                                "migd cannot answer now: the first reconcile has"
                                                    + " not ended, a GPU reset holds NVML, NVML"
                                                    + " failed, the config file is invalid, or the"
                                                    + " API server does not answer an access"
                                                    + " review")
                                            .addHeaderObject(
                                                "Retry-After",
                                                new Header()
                                                    .description(
                                                        "seconds to wait before trying again")
                                                    .schema(new IntegerSchema())))));
  }

  private static ApiResponse problem(String description) {
    return new ApiResponse()
        .description(description)
        .content(
            new Content()
                .addMediaType(
                    "application/problem+json",
                    new MediaType()
                        .schema(new Schema<>().$ref("#/components/schemas/ProblemDetail"))));
  }

  @Override
  public void addViewControllers(ViewControllerRegistry registry) {
    registry.addRedirectViewController("/api", SWAGGER_UI);
    registry.addRedirectViewController("/swagger-ui", SWAGGER_UI);
  }
}
