package io.chronix.core.series;

import java.util.Set;

/**
 * What a series was written as, kept as attributes so that the protocol's own identity can be
 * recovered from a record (docs/promql.md, names and labels). The fields start with an underscore:
 * client tags cannot produce them (those are stored as {@code tag_<key>}), and they are attributes
 * of the series but not labels of its PromQL view.
 *
 * <ul>
 *   <li>{@link #PROTOCOL}: influx, graphite, opentsdb, collectd or prometheus;
 *   <li>InfluxDB line protocol: measurement and field ({@code cpu_usage_idle} came from
 *       {@code cpu} and {@code usage_idle});
 *   <li>collectd: plugin, type, type instance and data source name;
 *   <li>Graphite path, OpenTSDB metric and Prometheus {@code __name__} are the series name itself.
 * </ul>
 */
public final class SeriesOrigin {

  public static final String PROTOCOL = "_protocol";
  public static final String INFLUX_MEASUREMENT = "_influx_measurement";
  public static final String INFLUX_FIELD = "_influx_field";
  public static final String COLLECTD_PLUGIN = "_collectd_plugin";
  public static final String COLLECTD_TYPE = "_collectd_type";
  public static final String COLLECTD_TYPE_INSTANCE = "_collectd_type_instance";
  public static final String COLLECTD_DSNAME = "_collectd_dsname";

  public static final String INFLUX = "influx";
  public static final String GRAPHITE = "graphite";
  public static final String OPENTSDB = "opentsdb";
  public static final String COLLECTD = "collectd";
  public static final String PROMETHEUS = "prometheus";

  public static final Set<String> FIELDS = Set.of(PROTOCOL, INFLUX_MEASUREMENT, INFLUX_FIELD, COLLECTD_PLUGIN,
      COLLECTD_TYPE, COLLECTD_TYPE_INSTANCE, COLLECTD_DSNAME);

  private SeriesOrigin() {}

  public static boolean isOrigin(String field) {
    return FIELDS.contains(field);
  }
}
