package io.chronix.ingest.metrics;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * The last warnings and errors the server logged, for the console's status page: an appender on
 * the root logger that keeps the newest {@value #KEPT} events (warnings of Chronix's own classes,
 * errors of any). What the log says is what the operator sees; nothing is collected elsewhere.
 */
public final class RecentErrors {

  private static final int KEPT = 50;

  /** One logged event. */
  public record Entry(Instant time, String level, String logger, String message) {}

  private final Deque<Entry> entries = new ArrayDeque<>();
  private final AtomicLong total = new AtomicLong();
  private final Appender appender = new Appender();

  private final class Appender extends AbstractAppender {
    Appender() {
      super("chronix-recent-errors-" + System.identityHashCode(RecentErrors.this), null, null, true,
          Property.EMPTY_ARRAY);
    }

    @Override
    public void append(LogEvent event) {
      boolean ours = event.getLoggerName() != null && event.getLoggerName().startsWith("io.chronix");
      if (!event.getLevel().isMoreSpecificThan(ours ? Level.WARN : Level.ERROR)) {
        return;
      }
      String message = event.getMessage().getFormattedMessage();
      if (event.getThrown() != null) {
        message += " (" + event.getThrown() + ")";
      }
      Entry entry = new Entry(Instant.ofEpochMilli(event.getTimeMillis()), event.getLevel().name(),
          event.getLoggerName(), message);
      total.incrementAndGet();
      synchronized (entries) {
        entries.addFirst(entry);
        if (entries.size() > KEPT) {
          entries.removeLast();
        }
      }
    }
  }

  /** Starts listening on the root logger (when Log4j is the logging backend; otherwise keeps nothing). */
  public RecentErrors install() {
    if (LogManager.getContext(false) instanceof LoggerContext context) {
      appender.start();
      Configuration config = context.getConfiguration();
      LoggerConfig root = config.getRootLogger();
      // events of additive loggers reach the root's appenders whatever the root's own level;
      // loggers that keep their events to themselves get the appender too
      root.addAppender(appender, Level.WARN, null);
      for (LoggerConfig logger : config.getLoggers().values()) {
        if (logger != root && !logger.isAdditive()) {
          logger.addAppender(appender, Level.WARN, null);
        }
      }
      context.updateLoggers();
    }
    return this;
  }

  public void uninstall() {
    if (LogManager.getContext(false) instanceof LoggerContext context) {
      for (LoggerConfig logger : context.getConfiguration().getLoggers().values()) {
        logger.removeAppender(appender.getName());
      }
      context.getConfiguration().getRootLogger().removeAppender(appender.getName());
      context.updateLoggers();
      appender.stop();
    }
  }

  /** Newest first. */
  public List<Entry> entries() {
    synchronized (entries) {
      return new ArrayList<>(entries);
    }
  }

  /** Warnings and errors counted since the start (also those no longer kept). */
  public long total() {
    return total.get();
  }
}
