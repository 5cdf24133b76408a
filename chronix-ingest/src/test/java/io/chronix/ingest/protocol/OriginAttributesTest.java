package io.chronix.ingest.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.chronix.core.series.Precision;
import io.chronix.core.series.SeriesKey;
import io.chronix.core.series.SeriesOrigin;
import io.chronix.ingest.protocol.collectd.CollectdJsonParser;
import io.chronix.ingest.protocol.graphite.GraphiteParser;
import io.chronix.ingest.protocol.influx.LineProtocolParser;
import io.chronix.ingest.protocol.opentsdb.OpenTsdbJsonParser;
import io.chronix.ingest.protocol.opentsdb.OpenTsdbTelnetParser;
import io.chronix.ingest.protocol.prometheus.proto.Label;
import io.chronix.ingest.protocol.prometheus.proto.Sample;
import io.chronix.ingest.protocol.prometheus.proto.TimeSeries;
import io.chronix.ingest.protocol.prometheus.proto.WriteRequest;
import io.chronix.ingest.protocol.prometheus.RemoteWriteParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.xerial.snappy.Snappy;

/** Every protocol stores what a series was written as (docs/promql.md, names and labels). */
class OriginAttributesTest {

  private final List<SeriesKey> keys = new ArrayList<>();
  private final PointSink sink = (key, timestamp, value) -> keys.add(key);

  @Test
  void influxKeepsMeasurementAndField() throws Exception {
    new LineProtocolParser(Precision.SECONDS, 0).parse("cpu,host=web1,_protocol=x usage_idle=97.5,value=1 1\n", sink);
    assertEquals(Map.of("host", "web1", "tag__protocol", "x", SeriesOrigin.PROTOCOL, "influx",
        SeriesOrigin.INFLUX_MEASUREMENT, "cpu", SeriesOrigin.INFLUX_FIELD, "usage_idle"), keys.get(0).attributes(),
        "a client's tag can never pose as an origin attribute");
    assertEquals("cpu_usage_idle", keys.get(0).name());
    assertEquals("cpu", keys.get(1).name());
    assertEquals("value", keys.get(1).attributes().get(SeriesOrigin.INFLUX_FIELD));
  }

  @Test
  void graphiteOpenTsdbAndPrometheusAreNamedByTheirOwnIdentity() throws Exception {
    new GraphiteParser(0).parse("servers.web1.load;dc=eu 1.5 100\n", sink);
    new OpenTsdbTelnetParser().parse("put sys.cpu.user 1346846400 18 host=web01\n", sink);
    new OpenTsdbJsonParser(() -> 0).parse("{\"metric\":\"sys.cpu.nice\",\"timestamp\":1346846400,\"value\":1}", sink);
    WriteRequest request = WriteRequest.newBuilder().addTimeseries(TimeSeries.newBuilder()
        .addLabels(Label.newBuilder().setName("__name__").setValue("up"))
        .addLabels(Label.newBuilder().setName("job").setValue("node"))
        .addSamples(Sample.newBuilder().setValue(1).setTimestamp(1000))).build();
    new RemoteWriteParser().parse(Snappy.compress(request.toByteArray()), sink);
    assertEquals(new SeriesKey("servers.web1.load", "metric", Map.of("dc", "eu", SeriesOrigin.PROTOCOL, "graphite")),
        keys.get(0));
    assertEquals(Map.of("host", "web01", SeriesOrigin.PROTOCOL, "opentsdb"), keys.get(1).attributes());
    assertEquals(Map.of(SeriesOrigin.PROTOCOL, "opentsdb"), keys.get(2).attributes());
    assertEquals(new SeriesKey("up", "metric", Map.of("job", "node", SeriesOrigin.PROTOCOL, "prometheus")), keys.get(3));
  }

  @Test
  void collectdKeepsPluginTypeInstanceAndDataSource() throws Exception {
    new CollectdJsonParser(() -> 0).parse("[{\"values\":[1],\"dstypes\":[\"derive\"],\"dsnames\":[\"rx\"],"
        + "\"time\":1280959128,\"host\":\"h\",\"plugin\":\"interface\",\"plugin_instance\":\"eth0\","
        + "\"type\":\"if_octets\",\"type_instance\":\"a.b\"}]", sink);
    assertEquals("interface.if_octets.a.b.rx", keys.get(0).name());
    assertEquals(Map.of("host", "h", "plugin_instance", "eth0", SeriesOrigin.PROTOCOL, "collectd",
        SeriesOrigin.COLLECTD_PLUGIN, "interface", SeriesOrigin.COLLECTD_TYPE, "if_octets",
        SeriesOrigin.COLLECTD_TYPE_INSTANCE, "a.b", SeriesOrigin.COLLECTD_DSNAME, "rx"), keys.get(0).attributes());
  }
}
