package io.chronix.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.analysis.Analysis;
import io.chronix.analysis.AnalysisResult;
import io.chronix.analysis.Functions;
import io.chronix.core.series.Points;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.importer.CsvImporter;
import java.io.PrintStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

/**
 * Server-side analyses versus fetching raw points to a client, on the same data in one run:
 * (a) {@code cf=metric{outlier;trend}} over all series answered by the Solr plugin; (b) the same
 * series fetched with {@code fl=dataAsJson}, parsed and analysed in the client with the same
 * analysis code. Reports the median of several rounds each and the ratio b / a.
 *
 * <p>Run: {@code benchmarks/run AnalysisBenchmark [<dir>] [rounds]}
 */
public final class AnalysisBenchmark {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private AnalysisBenchmark() {}

  public static void main(String[] args) throws Exception {
    Path input = Path.of(args.length > 0 ? args[0] : "../shared/data/p4");
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
    Path dataDir = Files.createTempDirectory("chronix-analysis-bench");
    try (ChronixServer server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.toString())).start()) {
      CsvImporter.Summary summary = new CsvImporter(URI.create(server.baseUrl()), ZoneOffset.UTC,
          new PrintStream(OutputStream.nullOutputStream()), false).importFiles(CsvImporter.expand(List.of(input)), 2);
      String base = server.solrUrl() + "/chronix/query?wt=json&q=" + URLEncoder.encode("*:*", StandardCharsets.UTF_8);
      String serverSide = base + "&fl=name&cf=" + URLEncoder.encode("metric{outlier;trend}", StandardCharsets.UTF_8);
      String raw = base + "&fl=name,dataAsJson";
      Analysis outlier = (Analysis) Functions.parse("outlier");
      Analysis trend = (Analysis) Functions.parse("trend");

      long[] serverNanos = new long[rounds];
      long[] clientNanos = new long[rounds];
      int seriesServer = 0;
      int seriesClient = 0;
      int matchesServer = 0;
      int matchesClient = 0;
      for (int round = -3; round < rounds; round++) { // three warm-up rounds
        long start = System.nanoTime();
        JsonNode answer = JSON.readTree(get(serverSide)).at("/response/docs");
        long serverTime = System.nanoTime() - start;
        seriesServer = answer.size();
        matchesServer = 0;
        for (JsonNode doc : answer) {
          for (JsonNode function : doc.get("functions")) {
            matchesServer += function.get("matches").asBoolean() ? 1 : 0;
          }
        }

        start = System.nanoTime();
        JsonNode docs = JSON.readTree(get(raw)).at("/response/docs");
        matchesClient = 0;
        for (JsonNode doc : docs) {
          Points points = points(JSON.readTree(doc.get("dataAsJson").asText()));
          AnalysisResult o = outlier.apply(points, q -> null);
          AnalysisResult t = trend.apply(points, q -> null);
          matchesClient += (o.matches() ? 1 : 0) + (t.matches() ? 1 : 0);
        }
        long clientTime = System.nanoTime() - start;
        seriesClient = docs.size();
        if (round >= 0) {
          serverNanos[round] = serverTime;
          clientNanos[round] = clientTime;
        }
      }
      if (seriesServer != seriesClient || matchesServer != matchesClient) {
        throw new IllegalStateException("server and client disagree: " + seriesServer + "/" + matchesServer
            + " vs " + seriesClient + "/" + matchesClient);
      }
      double serverMs = median(serverNanos) / 1e6;
      double clientMs = median(clientNanos) / 1e6;
      System.out.printf("points              %,d%n", summary.points());
      System.out.printf("series (joined)     %d, analyses holding: %d%n", seriesServer, matchesServer);
      System.out.printf("server-side         %.1f ms (median of %d)%n", serverMs, rounds);
      System.out.printf("fetch + client      %.1f ms (median of %d)%n", clientMs, rounds);
      System.out.printf("ratio client/server %.2fx%n", clientMs / serverMs);
    } finally {
      ImportBenchmark.deleteRecursively(dataDir);
    }
    System.exit(0);
  }

  private static String get(String url) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url)).build(),
        HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IllegalStateException(url + " -> " + response.statusCode() + " " + response.body());
    }
    return response.body();
  }

  private static Points points(JsonNode data) {
    JsonNode timestamps = data.get("timestamps");
    JsonNode values = data.get("values");
    Points points = new Points(timestamps.size());
    for (int i = 0; i < timestamps.size(); i++) {
      points.add(timestamps.get(i).asLong() * 1_000_000L, values.get(i).asDouble());
    }
    return points;
  }

  private static double median(long[] values) {
    long[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
