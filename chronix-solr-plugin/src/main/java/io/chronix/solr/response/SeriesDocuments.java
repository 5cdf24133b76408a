package io.chronix.solr.response;

import io.chronix.analysis.FunctionValue;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.codec.Compressions;
import io.chronix.core.record.RecordFields;
import io.chronix.core.rollup.BucketStats;
import io.chronix.core.rollup.RollupBlob;
import io.chronix.core.rollup.RollupStats;
import io.chronix.core.series.Points;
import io.chronix.core.series.Precision;
import io.chronix.solr.analyze.SeriesEvaluator;
import io.chronix.solr.query.RecordSummary;
import io.chronix.solr.query.SeriesFields;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Collection;
import org.apache.solr.common.SolrDocument;

/** Turns joined (and evaluated) series into response documents. */
public final class SeriesDocuments {

  private static final ChunkCodec RAW = new ChunkCodec(Compressions.NONE, 0);

  /** Field listing a query's function results. */
  public static final String FUNCTIONS = "functions";

  private SeriesDocuments() {}

  /** A series' descriptive fields only, for keys-only answers. */
  public static SolrDocument renderFields(SeriesFields fields, FieldList fl) {
    SolrDocument document = new SolrDocument();
    addFields(document, fields, fl);
    return document;
  }

  private static void addFields(SolrDocument document, SeriesFields fields, FieldList fl) {
    for (Map.Entry<String, Object> field : fields.view().entrySet()) {
      if (fl.wants(field.getKey())) {
        Object value = field.getValue();
        document.setField(field.getKey(), value instanceof Collection<?> several ? new ArrayList<>(several) : value);
      }
    }
  }

  /** Field holding a series' PromQL windows in a rollup tier ({@link RollupBlob}, intervals left empty). */
  public static final String WINDOWS = "windows";

  /** A series' fields and its PromQL windows in a rollup tier. */
  public static SolrDocument renderWindows(SeriesFields fields, BucketStats windows, FieldList fl) {
    SolrDocument document = new SolrDocument();
    addFields(document, fields, fl);
    BucketStats noIntervals = new BucketStats(windows.interval() * 1_000_000L, 0);
    document.setField(WINDOWS, RollupBlob.encode(new RollupStats(noIntervals, windows)));
    return document;
  }

  /** A series answered from its record statistics: fields, span and count, and the function values. */
  public static SolrDocument renderSummary(SeriesFields fields, RecordSummary summary, List<FunctionValue> values,
      FieldList fl) {
    SolrDocument document = new SolrDocument();
    addFields(document, fields, fl);
    addSpan(document, fl, summary.firstMillis(), summary.lastMillis(), summary.stats().count());
    document.setField(FUNCTIONS, SeriesEvaluator.render(values));
    return document;
  }

  /** The span (epoch milliseconds) and count of a series' points in range, as far as fl asks. */
  private static void addSpan(SolrDocument document, FieldList fl, long startMillis, long endMillis, long count) {
    if (fl.wants(RecordFields.START)) {
      document.setField(RecordFields.START, startMillis);
    }
    if (fl.wants(RecordFields.END)) {
      document.setField(RecordFields.END, endMillis);
    }
    if (fl.wants(RecordFields.COUNT)) {
      document.setField(RecordFields.COUNT, count);
    }
  }

  public static SolrDocument render(SeriesFields fields, Points points, List<FunctionValue> values,
      boolean withFunctions, FieldList fl, Precision precision) {
    SolrDocument document = new SolrDocument();
    addFields(document, fields, fl);
    int n = points.size();
    if (n > 0) {
      addSpan(document, fl, RecordFields.nanosToMillis(points.timestamp(0)),
          RecordFields.nanosToMillis(points.timestamp(n - 1)), n);
    } else if (fl.wants(RecordFields.COUNT)) {
      document.setField(RecordFields.COUNT, 0L);
    }
    if (fl.json() || fl.points()) {
      RawJson json = SeriesJson.encode(points, precision);
      if (fl.json()) {
        document.setField(FieldList.DATA_AS_JSON, json.toString());
      }
      if (fl.points()) {
        document.setField(FieldList.POINTS, json); // raw in JSON answers (RawJsonFields), as bytes in ours
      }
    }
    if (fl.blob()) {
      // uncompressed: the answer travels once, decoding it should cost nothing; a caller in the
      // process takes the points as they are
      document.setField(FieldList.DATA, fl.dataAsObjects() ? points : RAW.encode(points));
    }
    if (withFunctions) {
      document.setField(FUNCTIONS, SeriesEvaluator.render(values));
    }
    return document;
  }
}
