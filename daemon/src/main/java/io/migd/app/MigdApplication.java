package io.migd.app;

import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/** The daemon's Spring Boot application ({@code migd serve}). */
@SpringBootApplication
@EnableConfigurationProperties(MigdProperties.class)
public class MigdApplication {
  /** One line naming the HTTP port, also when {@code server.port=0} let the kernel choose it. */
  @Bean
  HttpListening httpListening() {
    return new HttpListening();
  }
}
