package io.chronix.ingest.solr;

import java.util.function.Consumer;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Filter;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.filter.AbstractFilter;
import org.apache.solr.common.SolrException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded node's refusals of requests as the client's doing, logged as one line at info.
 *
 * <p>Solr logs every request it answers with a 4xx (an unknown {@code cf} function, a query over
 * {@code maxDecodedPoints}, a selector it cannot run) at ERROR with the whole stack, under the
 * logger and level of its own failures ({@code "Client exception"}, {@code RequestHandlerBase}).
 * A dashboard polling a refused query wrote 55 lines a refresh, and the status page's recent
 * errors, which are the operator's, filled with the users' mistakes. The client has the refusal in
 * its answer; the log keeps a line of it here. Solr's server exceptions pass as they were.
 */
public final class SolrClientErrors {

  /** The logger and message Solr logs a client's error with. */
  static final String SOLR_LOGGER = "org.apache.solr.handler.RequestHandlerBase";
  static final String SOLR_MESSAGE = "Client exception";

  private static final Logger LOG = LoggerFactory.getLogger(SolrClientErrors.class);

  private final Refusals filter;

  public SolrClientErrors() {
    this(LOG::info);
  }

  SolrClientErrors(Consumer<String> log) {
    this.filter = new Refusals(log);
  }

  /** The line a refusal is logged as. */
  static String line(Throwable refusal) {
    int code = refusal instanceof SolrException solr ? solr.code() : 400;
    return "request refused with " + code + ": " + refusal.getMessage();
  }

  /** Filters Solr's logger from now on (where Log4j is the logging backend; otherwise does nothing). */
  public SolrClientErrors install() {
    if (LogManager.getContext(false) instanceof LoggerContext context) {
      Configuration config = context.getConfiguration();
      LoggerConfig logger = config.getLoggers().get(SOLR_LOGGER);
      if (logger == null) {
        // a level of null inherits the parent's, and additive events reach the parent's appenders:
        // the logger behaves as it did without a configuration of its own, but for the filter
        // (left in place on uninstall: without a filter it changes nothing, and another server in
        // this process may have put its filter on it too)
        logger = new LoggerConfig(SOLR_LOGGER, null, true);
        config.addLogger(SOLR_LOGGER, logger);
      }
      filter.start();
      logger.addFilter(filter);
      context.updateLoggers();
    }
    return this;
  }

  public void uninstall() {
    if (LogManager.getContext(false) instanceof LoggerContext context) {
      LoggerConfig logger = context.getConfiguration().getLoggers().get(SOLR_LOGGER);
      if (logger != null) {
        logger.removeFilter(filter);
      }
      filter.stop();
      context.updateLoggers();
    }
  }

  /** Denies Solr's client-error events, each logged as a line instead. */
  static final class Refusals extends AbstractFilter {
    private final Consumer<String> log;

    Refusals(Consumer<String> log) {
      super(Filter.Result.NEUTRAL, Filter.Result.NEUTRAL);
      this.log = log;
    }

    @Override
    public Result filter(LogEvent event) {
      if (event.getLevel() != Level.ERROR || event.getThrown() == null
          || !SOLR_MESSAGE.equals(event.getMessage().getFormattedMessage())) {
        return Result.NEUTRAL;
      }
      log.accept(line(event.getThrown()));
      return Result.DENY;
    }
  }
}
