package io.chronix.ingest.protocol.influx;

import javax.servlet.http.HttpServletResponse;

/** What InfluxDB 1.x clients look for in answers to tell that they talk to an InfluxDB. */
public final class InfluxHeaders {

  /** The InfluxDB release whose 1.x HTTP API the ingest endpoints follow. */
  public static final String VERSION = "1.8.10";

  private InfluxHeaders() {}

  public static void add(HttpServletResponse response) {
    response.setHeader("X-Influxdb-Version", VERSION);
    response.setHeader("X-Influxdb-Build", "OSS");
  }
}
