package io.chronix.ingest.solr;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.codec.ChunkCodec;
import io.chronix.core.live.LiveSeries;
import io.chronix.core.record.Record;
import io.chronix.core.record.RecordStats;
import io.chronix.core.series.Points;
import io.chronix.core.series.SeriesKey;
import io.chronix.ingest.TestHttp;
import io.chronix.ingest.store.RecordDocuments;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Writer;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import javax.servlet.ServletException;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.common.util.ExecutorUtil;
import org.apache.solr.core.SolrCore;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.request.SolrRequestInfo;
import org.apache.solr.response.BinaryQueryResponseWriter;
import org.apache.solr.response.SolrQueryResponse;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.HandlerWrapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.MDC;

/**
 * Series queries sent as GETs go to their core without Solr's dispatch, and answer as Solr's
 * dispatch answers the same query posted as a form: status, content type and body (but the time it
 * took), also for errors. Everything else is left to Solr's dispatch.
 */
class LocalQueryDispatchTest {

  private static final long T0 = 1_700_000_000_000L;

  @TempDir Path dataDir;
  private EmbeddedSolrNode node;
  private Server jetty;
  private String solr;
  private ThreadProbe probe;
  private final HttpClient http = TestHttp.CLIENT;

  @BeforeEach
  void start() throws Exception {
    node = new EmbeddedSolrNode(dataDir, "chronix", false);
    jetty = new Server();
    ServerConnector connector = new ServerConnector(jetty);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    jetty.addConnector(connector);
    probe = new ThreadProbe(node.handler());
    jetty.setHandler(probe);
    jetty.start();
    solr = "http://127.0.0.1:" + connector.getLocalPort() + "/solr";
    try (SolrClient client = node.client()) {
      for (String host : List.of("a", "b")) {
        Points points = new Points();
        for (int i = 0; i < 600; i++) {
          points.add((T0 + i * 1000L) * 1_000_000L, host.equals("a") ? i % 17 : Math.sin(i / 10.0));
        }
        Record record = Record.encode(SeriesKey.metric("cpu", Map.of("host", host)), points, ChunkCodec.lossless());
        client.add("chronix", RecordDocuments.toDocument(record, 1));
      }
      // statistics that answer without the blob, a blob that cannot be decoded when the points are asked for
      client.add("chronix", RecordDocuments.toDocument(new Record(SeriesKey.metric("broken", Map.of("host", "a")),
          T0 * 1_000_000L, (T0 + 9_000) * 1_000_000L, new RecordStats(10, -1, 7, 30, 2, 3), new byte[] {1, 2, 3}), 1));
      client.commit("chronix");
    }
  }

  @AfterEach
  void stop() throws Exception {
    jetty.stop();
  }

  @Test
  void answersAsSolrsDispatchAnswersTheSameQuery() throws Exception {
    List<String> queries = List.of(
        "/chronix/query?q=name:cpu&fl=name,host&cf=" + encode("metric{max;avg;count}"),
        "/chronix/query?q=" + encode("name:cpu AND host:\"b\" AND start:" + (T0 + 10_000) + " AND end:" + (T0 + 99_000))
            + "&fl=dataAsJson",
        "/chronix/query?q=name:cpu&fl=name&cf=" + encode("metric{outlier;trend}") + "&echoParams=all",
        "/chronix/query?q=name:cpu&fl=points&wt=xml",
        "/chronix/query?q=name:nothing",
        "/chronix/select?q=*:*&rows=0",
        // query strings of repeated keys, '+' for spaces, escapes of UTF-8, a key without a value,
        // and one the route leaves to Solr's parser of query strings
        "/chronix/query?q=name:cpu+AND+host:%22a%22&fl=name&fl=host&cf=" + encode("metric{max}") + "&echoParams=all",
        "/chronix/query?q=" + encode("name:cpu AND host:\"été\"") + "&fq=host:a&fq=-host:b",
        "/chronix/query?q=name:cpu&rows",
        "/chronix/query?q=name:cpu&f%2Eq=host:a&fl=name",
        // a client's error, a query Solr's parser reads, and a failure while reading records
        "/chronix/query?q=name:cpu&cf=" + encode("metric{nosuch}"),
        "/chronix/query?q=name:cpu+AND+start:yesterday",
        "/chronix/query?q=" + encode("(name:cpu OR name:other) AND -host:b") + "&fl=name,count",
        "/chronix/query?q=name:broken&cf=" + encode("metric{avg}"),
        // a response writer that fails on the answer, and on the error too
        "/chronix/select?q=*:*&wt=geojson");
    long before = node.localQueries();
    for (String query : queries) {
      HttpResponse<String> local = get(query);
      HttpResponse<String> dispatched = post(query);
      assertEquals(dispatched.statusCode(), local.statusCode(), query + ": " + local.body());
      assertEquals(dispatched.headers().firstValue("Content-Type"), local.headers().firstValue("Content-Type"), query);
      assertEquals(withoutTimes(dispatched.body()), withoutTimes(local.body()), query);
    }
    assertEquals(before + queries.size(), node.localQueries(), "every GET went to its core without Solr's dispatch");
  }

  @Test
  void failuresAnswerWithSolrsErrorSection() throws Exception {
    HttpResponse<String> bad = get("/chronix/query?q=name:cpu&cf=" + encode("metric{nosuch}"));
    assertEquals(400, bad.statusCode(), bad.body());
    assertTrue(bad.body().contains("\"error\":{") && bad.body().contains("\"code\":400"), bad.body());
    assertTrue(bad.headers().firstValue("Cache-Control").orElse("").contains("no-cache"), "errors are not cached");
    HttpResponse<String> broken = get("/chronix/query?q=name:broken&cf=" + encode("metric{avg}"));
    assertEquals(500, broken.statusCode(), broken.body());
    assertTrue(broken.body().contains("cannot be decoded"), broken.body());
  }

  @Test
  void leavesEverythingElseToSolrsDispatch() throws Exception {
    long before = node.localQueries();
    assertEquals(200, http.send(HttpRequest.newBuilder(URI.create(solr + "/chronix/query?q=name:cpu"))
        .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding()).statusCode());
    assertEquals(404, get("/nosuchcore/query?q=*:*").statusCode());
    assertEquals(404, get("/chronix/nosuchhandler?q=*:*").statusCode());
    assertEquals(200, get("/chronix/admin/ping").statusCode());
    HttpResponse<String> streamed = get("/chronix/query?q=name:cpu&stream.body=x");
    assertEquals(400, streamed.statusCode(), "Solr's dispatch refuses remote streams: " + streamed.body());
    String shards = "/chronix/query?q=name:cpu&shards=" + encode(solr.substring("http://".length()) + "/chronix");
    HttpResponse<String> distributed = get(shards);
    assertEquals(post(shards).statusCode(), distributed.statusCode(), distributed.body());
    assertEquals(before, node.localQueries());
  }

  /**
   * A core's route of its own (the start's warm-up serves its scratch core through it, on a Jetty
   * without access control) answers that core's queries and no other core's.
   */
  @Test
  void aCoresOwnRouteAnswersThatCoreAlone() throws Exception {
    for (String core : List.of("chronix", "chronix_warmup")) {
      Server beside = new Server();
      ServerConnector connector = new ServerConnector(beside);
      connector.setHost("127.0.0.1");
      connector.setPort(0);
      beside.addConnector(connector);
      beside.setHandler(node.queryRoute(core));
      beside.start();
      try {
        HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
            + connector.getLocalPort() + "/solr/chronix/query?q=name:cpu&fl=host")).GET().build(),
            HttpResponse.BodyHandlers.ofString());
        if (core.equals("chronix")) {
          assertEquals(200, answer.statusCode(), answer.body());
          assertTrue(answer.body().contains("\"host\":[\"a\",\"b\"]"), answer.body());
        } else {
          assertEquals(404, answer.statusCode(), "the records' core through another core's route: " + answer.body());
        }
      } finally {
        beside.stop();
      }
    }
  }

  /**
   * Buffered points offered for one core (the start's warm-up offers its scratch buffers for its
   * scratch core) are seen by that core's series queries alone, and go with the core.
   */
  @Test
  void bufferedPointsOfferedForACoreAreThatCoresAlone() throws Exception {
    node.openScratchCore("chronix_warmup").close();
    Points points = new Points();
    for (int i = 0; i < 5; i++) {
      points.add((T0 + i * 1000L) * 1_000_000L, i);
    }
    node.offer("chronix_warmup", wanted -> List.of(new LiveSeries.Buffered(SeriesKey.metric("mem", Map.of()), points)));
    HttpResponse<String> scratch = get("/chronix_warmup/query?q=name:mem&fl=points");
    assertEquals(200, scratch.statusCode(), scratch.body());
    assertTrue(scratch.body().contains("\"numFound\":1"), "the scratch core's buffered series: " + scratch.body());
    HttpResponse<String> records = get("/chronix/query?q=name:mem&fl=points");
    assertTrue(records.body().contains("\"numFound\":0"), "the records' core sees none of it: " + records.body());
    node.dropScratchCore("chronix_warmup");
    assertEquals(null, node.coreContainer().getObjectCache().get(LiveSeries.containerKey("chronix_warmup")),
        "taken back with the core");
  }

  /**
   * The route leaves the request's thread as it found it: the context class loader, Solr's
   * server-thread flag, its request info and the logging context are Solr's only while the core
   * works on the request (Jetty's threads go on to other requests, ours among them).
   */
  @Test
  void leavesTheThreadAsItFoundIt() throws Exception {
    long before = node.localQueries();
    for (String query : List.of("/chronix/query?q=name:cpu&fl=name&cf=" + encode("metric{max}"),
        "/chronix/query?q=name:cpu&cf=" + encode("metric{nosuch}"), "/chronix/select?q=*:*&wt=geojson")) {
      get(query);
    }
    assertEquals(before + 3, node.localQueries(), "the requests took the route");
    assertEquals(List.of(), probe.leftovers);
    assertEquals(3, probe.requests.get());
  }

  /**
   * A writer that fails halfway through an answer: what it had written is dropped and the error
   * answered alone, a whole document of the writer's type (Solr's dispatch appends the error to
   * the part already written).
   */
  @Test
  void aWriterFailingHalfwayLeavesOnlyTheError() throws Exception {
    try (SolrCore core = node.coreContainer().getCore("chronix")) {
      core.registerResponseWriter("halfway", new HalfwayWriter());
    }
    long before = node.localQueries();
    HttpResponse<String> answer = get("/chronix/query?q=name:cpu&fl=name&wt=halfway");
    assertEquals(before + 1, node.localQueries());
    assertEquals(500, answer.statusCode(), answer.body());
    assertEquals("{\"failed\":\"the writer fails halfway\"}", answer.body());
  }

  /** Writes the start of an answer and fails; writes an error answer whole. */
  private static final class HalfwayWriter implements BinaryQueryResponseWriter {
    @Override
    public void write(OutputStream out, SolrQueryRequest request, SolrQueryResponse response) throws IOException {
      if (response.getException() == null) {
        out.write("{\"docs\":[".getBytes(StandardCharsets.UTF_8));
        throw new IllegalStateException("the writer fails halfway");
      }
      out.write(("{\"failed\":\"" + response.getException().getMessage() + "\"}").getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public void write(Writer writer, SolrQueryRequest request, SolrQueryResponse response) {
      throw new UnsupportedOperationException("a binary writer");
    }

    @Override
    public String getContentType(SolrQueryRequest request, SolrQueryResponse response) {
      return "application/json";
    }
  }

  /**
   * Around the node's handler, in the request's thread: a class loader of its own set before, and
   * after, what Solr's request handling left behind.
   */
  private static final class ThreadProbe extends HandlerWrapper {
    final List<String> leftovers = new CopyOnWriteArrayList<>();
    final AtomicInteger requests = new AtomicInteger();

    ThreadProbe(Handler inner) {
      setHandler(inner);
    }

    @Override
    public void handle(String target, Request baseRequest, HttpServletRequest request, HttpServletResponse response)
        throws IOException, ServletException {
      Thread thread = Thread.currentThread();
      ClassLoader jettys = thread.getContextClassLoader();
      ClassLoader own = new URLClassLoader(new URL[0], jettys);
      thread.setContextClassLoader(own);
      Map<String, String> logging = MDC.getCopyOfContextMap();
      try {
        super.handle(target, baseRequest, request, response);
      } finally {
        requests.incrementAndGet();
        if (thread.getContextClassLoader() != own) {
          leftovers.add("class loader " + thread.getContextClassLoader());
        }
        if (ExecutorUtil.isSolrServerThread()) {
          leftovers.add("Solr's server-thread flag");
        }
        if (SolrRequestInfo.getRequestInfo() != null) {
          leftovers.add("Solr's request info");
        }
        if (!Objects.equals(logging, MDC.getCopyOfContextMap())) {
          leftovers.add("logging context " + MDC.getCopyOfContextMap());
        }
        thread.setContextClassLoader(jettys);
      }
    }
  }

  /** The query posted as a form: Solr's dispatch answers it. */
  private HttpResponse<String> post(String query) throws Exception {
    int question = query.indexOf('?');
    return http.send(HttpRequest.newBuilder(URI.create(solr + query.substring(0, question)))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(query.substring(question + 1))).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(solr + path)).GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  /**
   * The answer but the time it took, the request's number (which echoParams=all shows) and an
   * error's stack trace (whose outer frames are the dispatch's).
   */
  private static String withoutTimes(String body) {
    return body.replaceAll("\"QTime\":\\d+", "\"QTime\":0").replaceAll("<int name=\"QTime\">\\d+</int>", "")
        .replaceAll("\"rid\":\"[^\"]*\"", "\"rid\":\"\"").replaceAll("\"trace\":\"(?:[^\"\\\\]++|\\\\.)*+\"", "\"trace\":\"\"");
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
