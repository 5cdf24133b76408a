package io.chronix.ingest.protocol.prometheus;

import io.chronix.analysis.promql.engine.PromQlException;
import io.chronix.analysis.promql.engine.RawSeries;
import io.chronix.analysis.promql.engine.SeriesSource;
import io.chronix.analysis.promql.model.Labels;
import io.chronix.core.series.PrometheusNames;
import io.chronix.ingest.http.JsonResponses;
import io.chronix.ingest.http.RequestBodies;
import io.chronix.ingest.protocol.MalformedBodyException;
import io.chronix.ingest.protocol.prometheus.proto.Label;
import io.chronix.ingest.protocol.prometheus.proto.Query;
import io.chronix.ingest.protocol.prometheus.proto.QueryResult;
import io.chronix.ingest.protocol.prometheus.proto.ReadRequest;
import io.chronix.ingest.protocol.prometheus.proto.ReadResponse;
import io.chronix.ingest.protocol.prometheus.proto.Sample;
import io.chronix.ingest.protocol.prometheus.proto.TimeSeries;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.xerial.snappy.Snappy;

/**
 * {@code POST /api/v1/read}: Prometheus remote read 1.0 with the samples response, so that a
 * Prometheus can use the store as long-term storage beside remote write. Each query's matchers
 * select series as PromQL selectors do (the same source); every sample in
 * [start, end] is returned bit for bit, stale markers included, labels as the PromQL API shows
 * them. At most {@code maxSamples} samples per request; more is a 400 that says so.
 */
public final class RemoteReadServlet extends HttpServlet {

  private final transient SeriesSource source;
  private final long maxRequestBytes;
  private final long maxSamples;

  public RemoteReadServlet(SeriesSource source, long maxRequestBytes, long maxSamples) {
    this.source = source;
    this.maxRequestBytes = maxRequestBytes;
    this.maxSamples = maxSamples;
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
    ReadRequest read;
    try {
      read = RemoteReadRequests.decode(RequestBodies.readBytes(request, maxRequestBytes), maxRequestBytes);
    } catch (MalformedBodyException e) {
      JsonResponses.error(response, e.status(), e.getMessage());
      return;
    }
    if (!read.getAcceptedResponseTypesList().isEmpty()
        && !read.getAcceptedResponseTypesList().contains(ReadRequest.ResponseType.SAMPLES)) {
      JsonResponses.error(response, 400, "only the SAMPLES response type is offered, the request accepts "
          + read.getAcceptedResponseTypesList());
      return;
    }
    ReadResponse.Builder answer = ReadResponse.newBuilder();
    long samples = 0;
    try {
      for (int q = 0; q < read.getQueriesCount(); q++) {
        Query query = read.getQueries(q);
        QueryResult.Builder result = QueryResult.newBuilder();
        for (RawSeries series : source.select(RemoteReadRequests.matchers(query, q), query.getStartTimestampMs(), query.getEndTimestampMs())) {
          TimeSeries.Builder timeSeries = timeSeries(series.labels());
          for (int i = 0; i < series.size(); i++) {
            long t = series.timestamp(i);
            if (t >= query.getStartTimestampMs() && t <= query.getEndTimestampMs()) {
              timeSeries.addSamples(Sample.newBuilder().setTimestamp(t).setValue(series.value(i)));
            }
          }
          samples += timeSeries.getSamplesCount();
          if (samples > maxSamples) {
            JsonResponses.error(response, 400, "the read selects more than " + maxSamples
                + " samples (promql.maxSamples); ask for a shorter time range or fewer series");
            return;
          }
          if (timeSeries.getSamplesCount() > 0) {
            result.addTimeseries(timeSeries);
          }
        }
        answer.addResults(result);
      }
    } catch (IllegalArgumentException e) {
      JsonResponses.error(response, 400, e.getMessage());
      return;
    } catch (PromQlException e) {
      JsonResponses.error(response, e.type() == PromQlException.Type.INTERNAL ? 500 : 400, e.getMessage());
      return;
    }
    byte[] compressed = Snappy.compress(answer.build().toByteArray());
    response.setStatus(200);
    response.setContentType("application/x-protobuf");
    response.setHeader("Content-Encoding", "snappy");
    response.setContentLength(compressed.length);
    response.getOutputStream().write(compressed);
  }

  private static TimeSeries.Builder timeSeries(Labels labels) {
    TimeSeries.Builder series = TimeSeries.newBuilder();
    for (int i = 0; i < labels.size(); i++) {
      series.addLabels(Label.newBuilder().setName(PrometheusNames.escape(labels.name(i))).setValue(labels.value(i)));
    }
    return series;
  }
}
