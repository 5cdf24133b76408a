package io.chronix.ingest.solr;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/** The events every logger passes on to the root's appenders, from its creation to its close. */
public final class LogEvents implements AutoCloseable {

  private final List<LogEvent> events = new CopyOnWriteArrayList<>();
  private final AbstractAppender appender = new AbstractAppender("test-events-" + System.nanoTime(), null, null,
      true, Property.EMPTY_ARRAY) {
    @Override
    public void append(LogEvent event) {
      events.add(event.toImmutable());
    }
  };

  public LogEvents() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    appender.start();
    LoggerConfig root = context.getConfiguration().getRootLogger();
    root.addAppender(appender, Level.ALL, null);
    context.getConfiguration().getLoggers().values().forEach(logger -> {
      if (logger != root && !logger.isAdditive()) {
        logger.addAppender(appender, Level.ALL, null);
      }
    });
    context.updateLoggers();
  }

  public List<String> messages(String logger, Level level) {
    return events.stream().filter(e -> e.getLoggerName().equals(logger) && e.getLevel() == level)
        .map(e -> e.getMessage().getFormattedMessage()).toList();
  }

  @Override
  public void close() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    context.getConfiguration().getLoggers().values().forEach(logger -> logger.removeAppender(appender.getName()));
    context.getConfiguration().getRootLogger().removeAppender(appender.getName());
    context.updateLoggers();
    appender.stop();
  }
}
