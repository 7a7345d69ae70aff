package io.migd.app;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.server.context.WebServerInitializedEvent;
import org.springframework.context.ApplicationListener;

/**
 * Says once where {@code serve} answers HTTP, with the port the server really bound: with {@code
 * server.port=0} the kernel picks it, and this line is how an operator (or a test) learns it.
 */
final class HttpListening implements ApplicationListener<WebServerInitializedEvent> {
  private static final Logger log = LoggerFactory.getLogger(HttpListening.class);

  @Override
  public void onApplicationEvent(WebServerInitializedEvent event) {
    String address =
        event.getApplicationContext().getEnvironment().getProperty("server.address", "127.0.0.1");
    log.info("http listening address={} port={}", address, event.getWebServer().getPort());
  }
}
