package io.migd.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/**
 * The daemon's Spring Boot application ({@code migd serve}); its configuration lives in {@code
 * io.migd.app} and beside the web adapters ({@code io.migd.rest...}).
 */
@SpringBootApplication(scanBasePackages = "io.migd")
@EnableConfigurationProperties(MigdProperties.class)
public class MigdApplication {}
