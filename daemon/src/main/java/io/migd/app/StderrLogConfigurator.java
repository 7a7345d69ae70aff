package io.migd.app;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.Logger;

/**
 * Logging of the one-shot commands: to stderr, so they write only their result to stdout; {@code
 * io.migd} at INFO ({@code MIGD_LOG_LEVEL} to change it), everything else at WARN. Configured in
 * code, because parsing an XML configuration costs the short-lived commands half a second. {@code
 * serve} replaces this with Spring Boot's logging ({@code logging.level.*} properties).
 */
public final class StderrLogConfigurator extends ContextAwareBase implements Configurator {
  @Override
  public ExecutionStatus configure(LoggerContext context) {
    var encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%d{yyyy-MM-dd'T'HH:mm:ss.SSSXXX} %-5level [%thread] %logger{20} %msg%n");
    encoder.start();
    var appender = new ConsoleAppender<ILoggingEvent>();
    appender.setContext(context);
    appender.setName("stderr");
    appender.setTarget("System.err");
    appender.setEncoder(encoder);
    appender.start();
    var root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.WARN);
    root.addAppender(appender);
    String level = System.getenv().getOrDefault("MIGD_LOG_LEVEL", "INFO");
    context.getLogger("io.migd").setLevel(Level.toLevel(level, Level.INFO));
    // Netty warns once per unix-socket connection that it ignores SO_KEEPALIVE (PodResources)
    context.getLogger("io.grpc.netty.shaded.io.netty.bootstrap").setLevel(Level.ERROR);
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
