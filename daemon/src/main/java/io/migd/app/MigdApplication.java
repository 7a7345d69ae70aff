package io.migd.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;

/** The daemon's Spring Boot application ({@code migd serve}). */
@SpringBootApplication
@EnableConfigurationProperties(MigdProperties.class)
public class MigdApplication {}
