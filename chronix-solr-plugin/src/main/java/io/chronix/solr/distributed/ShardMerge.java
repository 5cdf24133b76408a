package io.chronix.solr.distributed;

import io.chronix.analysis.FunctionQueryException;
import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesMerge;
import io.chronix.solr.ChronixQueryComponent;
import io.chronix.solr.analyze.LocalReferences;
import io.chronix.solr.analyze.SeriesEvaluator;
import io.chronix.solr.query.JoinOrder;
import io.chronix.solr.query.JoinedSeries;
import io.chronix.solr.query.SeriesPart;
import io.chronix.solr.query.SeriesFields;
import io.chronix.solr.query.SeriesQuery;
import io.chronix.solr.response.FieldList;
import io.chronix.solr.response.RawJsonFields;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import org.apache.solr.common.SolrDocument;
import org.apache.solr.common.SolrDocumentList;
import org.apache.solr.common.SolrException;
import org.apache.solr.common.params.CommonParams;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.common.params.SolrParams;
import org.apache.solr.handler.component.ResponseBuilder;
import org.apache.solr.handler.component.SearchComponent;
import org.apache.solr.handler.component.ShardRequest;
import org.apache.solr.handler.component.ShardResponse;

/**
 * Series queries over a sharded collection. Records are routed by name and type, so a join on a
 * superset of those finds all its records on one shard: shards then evaluate functions themselves
 * and the coordinator only concatenates, orders and pages their series. Any other join may span
 * shards: shards answer joined, clipped points per join key ({@link ShardParams#PARTIAL}) and the
 * coordinator merges them and evaluates. Reference series (fastdtw) are resolved across shards in
 * a first round and handed to the shards.
 */
public final class ShardMerge {

  private static final String RESPONSES = ShardMerge.class.getName() + ".responses";
  private static final String REFERENCES = ShardMerge.class.getName() + ".references";
  private static final String MAIN = "main";

  private ShardMerge() {}

  public static int distributedProcess(SearchComponent component, ResponseBuilder rb, SeriesQuery query) {
    if (rb.stage < ResponseBuilder.STAGE_PARSE_QUERY) {
      return ResponseBuilder.STAGE_PARSE_QUERY;
    }
    if (rb.stage == ResponseBuilder.STAGE_PARSE_QUERY) {
      List<String> references = referenceQueries(query);
      for (int i = 0; i < references.size(); i++) {
        ModifiableSolrParams params = shardParams(rb);
        params.set(CommonParams.Q, references.get(i));
        params.set("cj", query.join().toParam());
        params.set(ShardParams.PARTIAL, true);
        params.set(ShardParams.REFERENCE_INDEX, i);
        rb.addRequest(component, request(rb, params));
      }
      return ResponseBuilder.STAGE_EXECUTE_QUERY;
    }
    if (rb.stage == ResponseBuilder.STAGE_EXECUTE_QUERY) {
      ModifiableSolrParams params = shardParams(rb);
      params.add(rb.req.getParams());
      params.set(CommonParams.START, 0);
      params.set(CommonParams.ROWS, Integer.MAX_VALUE);
      if (query.join().isShardLocal()) {
        ShardParams.addReferences(params, references(rb));
      } else {
        params.set(ShardParams.PARTIAL, true);
      }
      rb.addRequest(component, request(rb, params));
      return ResponseBuilder.STAGE_DONE;
    }
    return ResponseBuilder.STAGE_DONE;
  }

  private static List<String> referenceQueries(SeriesQuery query) {
    return new SeriesEvaluator(query.functions(), query.analyses(), q -> null).referenceQueries();
  }

  private static ModifiableSolrParams shardParams(ResponseBuilder rb) {
    ModifiableSolrParams params = new ModifiableSolrParams();
    // shards answer through this same handler, not /select
    Object path = rb.req.getContext().get("path");
    params.set(org.apache.solr.common.params.ShardParams.SHARDS_QT, path == null ? "/query" : path.toString());
    params.set(CommonParams.WT, "javabin");
    return params;
  }

  /** A request to every shard; internal parameters go signed, so that shards can tell a coordinator sent them. */
  private static ShardRequest request(ResponseBuilder rb, ModifiableSolrParams params) {
    if (ShardParams.INTERNAL.stream().anyMatch(name -> params.get(name) != null)) {
      ShardSignature.of(rb.req.getCore().getCoreContainer()).orElseThrow(() -> new SolrException(
          SolrException.ErrorCode.SERVER_ERROR, "this query needs answers from shards that only a signed request gets:"
          + " run SolrCloud, or set the system property chronix.shardSecret alike on every node")).sign(params);
    }
    ShardRequest request = new ShardRequest();
    request.purpose = ShardRequest.PURPOSE_PRIVATE;
    request.params = params;
    return request;
  }

  public static void handleResponses(ResponseBuilder rb, ShardRequest request) {
    String target = request.params.get(ShardParams.REFERENCE_INDEX, MAIN);
    for (ShardResponse response : request.responses) {
      if (response.getException() != null) {
        Throwable cause = response.getException();
        int code = cause instanceof SolrException ? ((SolrException) cause).code() : 500;
        throw new SolrException(SolrException.ErrorCode.getErrorCode(code),
            "shard " + response.getShard() + ": " + cause.getMessage(), cause);
      }
      SolrDocumentList documents = (SolrDocumentList) response.getSolrResponse().getResponse().get("response");
      if (documents != null) {
        responses(rb).computeIfAbsent(target, k -> new ArrayList<>()).addAll(documents);
      }
    }
  }

  public static void finishStage(ResponseBuilder rb, SeriesQuery query) {
    Map<String, List<SolrDocument>> responses = responses(rb);
    if (rb.stage == ResponseBuilder.STAGE_PARSE_QUERY) {
      List<String> queries = referenceQueries(query);
      Map<String, Points> references = references(rb);
      for (int i = 0; i < queries.size(); i++) {
        List<JoinedSeries> series = mergePartials(responses.getOrDefault(String.valueOf(i), List.of()));
        try {
          references.put(queries.get(i), LocalReferences.single(queries.get(i), series.size(),
              series.isEmpty() ? null : series.get(0).points()));
        } catch (FunctionQueryException e) {
          throw new SolrException(SolrException.ErrorCode.BAD_REQUEST, e.getMessage(), e);
        }
      }
    } else if (rb.stage == ResponseBuilder.STAGE_EXECUTE_QUERY) {
      List<SolrDocument> documents = responses.getOrDefault(MAIN, List.of());
      SolrDocumentList result;
      if (query.join().isShardLocal()) {
        documents.sort(Comparator.comparing(d -> (String) d.getFirstValue(ShardParams.SORT_KEY)));
        documents.forEach(d -> d.removeFields(ShardParams.SORT_KEY));
        result = page(documents, rb.req.getParams());
      } else {
        Map<String, Points> references = references(rb);
        SeriesEvaluator evaluator = new SeriesEvaluator(query.functions(), query.analyses(), q -> {
          Points points = references.get(q);
          if (points == null) {
            throw new FunctionQueryException("reference query '" + q + "' was not resolved");
          }
          return points;
        });
        result = ChronixQueryComponent.respond(mergePartials(documents), evaluator, query, rb.req.getParams(), false);
      }
      rb.rsp.addResponse(result);
      RawJsonFields.applyTo(rb, query.fields());
    }
  }

  /**
   * What a shard answers in partial mode: per record of each join key, the key, the group's
   * fields, the record's series id and write order, and its points in the range as a blob.
   */
  public static SolrDocumentList partialDocuments(List<SeriesPart> parts) {
    List<SolrDocument> documents = new ArrayList<>(parts.size());
    for (SeriesPart part : parts) {
      SolrDocument document = new SolrDocument();
      document.setField(ShardParams.JOIN_KEY, new ArrayList<>(part.joinKey()));
      for (Map.Entry<String, SortedSet<String>> field : part.fields().values().entrySet()) {
        document.setField(field.getKey(), new ArrayList<>(field.getValue()));
      }
      document.setField(ShardParams.SERIES_ID, part.seriesId());
      document.setField(ShardParams.WRITE_ORDER, part.writeOrder());
      document.setField(FieldList.DATA, ChunkCodec.lossless().encode(part.points()));
      documents.add(document);
    }
    return all(documents);
  }

  /**
   * Joins the parts of all shards per join key as one core joins its records: in {@link
   * JoinOrder}, the later part winning a shared timestamp, whichever shard it came from.
   */
  @SuppressWarnings("unchecked")
  static List<JoinedSeries> mergePartials(List<SolrDocument> documents) {
    Map<List<String>, SeriesFields> fields = new LinkedHashMap<>();
    Map<List<String>, List<JoinOrder.Part<Points>>> parts = new HashMap<>();
    for (SolrDocument document : documents) {
      List<String> key = new ArrayList<>((Collection<String>) document.getFieldValue(ShardParams.JOIN_KEY));
      SeriesFields merged = fields.computeIfAbsent(key, k -> new SeriesFields());
      for (String name : document.getFieldNames()) {
        if (!INTERNAL_FIELDS.contains(name)) {
          for (Object value : document.getFieldValues(name)) {
            merged.add(name, value.toString());
          }
        }
      }
      // shards of builds before 428bb10 send neither: their parts keep their arrival order
      Object order = document.getFieldValue(ShardParams.WRITE_ORDER);
      long writeOrder = order instanceof Number number ? number.longValue()
          : order == null ? Long.MIN_VALUE : Long.parseLong(order.toString());
      Object series = document.getFieldValue(ShardParams.SERIES_ID);
      parts.computeIfAbsent(key, k -> new ArrayList<>()).add(new JoinOrder.Part<>(series == null ? "" : series.toString(),
          writeOrder, ChunkCodec.decode((byte[]) document.getFieldValue(FieldList.DATA))));
    }
    List<JoinedSeries> series = new ArrayList<>(fields.size());
    for (Map.Entry<List<String>, SeriesFields> entry : fields.entrySet()) {
      List<JoinOrder.Part<Points>> ordered = parts.get(entry.getKey());
      JoinOrder.sort(ordered);
      List<Points> points = new ArrayList<>(ordered.size());
      ordered.forEach(part -> points.add(part.item()));
      series.add(new JoinedSeries(entry.getKey(), entry.getValue(), points.size() == 1 ? points.get(0)
          : SeriesMerge.merge(points)));
    }
    JoinedSeries.sort(series);
    return series;
  }

  private static final java.util.Set<String> INTERNAL_FIELDS = java.util.Set.of(ShardParams.JOIN_KEY, FieldList.DATA,
      ShardParams.WRITE_ORDER, ShardParams.SERIES_ID);

  public static SolrDocumentList all(List<SolrDocument> documents) {
    SolrDocumentList list = new SolrDocumentList();
    list.addAll(documents);
    list.setNumFound(documents.size());
    list.setStart(0);
    list.setNumFoundExact(true);
    return list;
  }

  /** The {@code start}/{@code rows} window over series; all series when rows is not given. */
  public static SolrDocumentList page(List<SolrDocument> documents, SolrParams params) {
    int offset = Math.max(0, params.getInt(CommonParams.START, 0));
    int rows = Math.max(0, params.getInt(CommonParams.ROWS, Integer.MAX_VALUE));
    List<SolrDocument> page = new ArrayList<>();
    for (int i = offset; i < documents.size() && i - offset < rows; i++) {
      page.add(documents.get(i));
    }
    return page(page, documents.size(), offset);
  }

  /** A page chosen already: its documents, the number of documents in all, and where the page starts. */
  public static SolrDocumentList page(List<SolrDocument> page, int total, int offset) {
    SolrDocumentList list = new SolrDocumentList();
    list.addAll(page);
    list.setNumFound(total);
    list.setStart(offset);
    list.setNumFoundExact(true);
    return list;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, List<SolrDocument>> responses(ResponseBuilder rb) {
    return (Map<String, List<SolrDocument>>) rb.req.getContext().computeIfAbsent(RESPONSES, k -> new HashMap<>());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Points> references(ResponseBuilder rb) {
    return (Map<String, Points>) rb.req.getContext().computeIfAbsent(REFERENCES, k -> new LinkedHashMap<>());
  }
}
