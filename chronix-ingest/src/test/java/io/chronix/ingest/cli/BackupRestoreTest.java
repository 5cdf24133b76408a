package io.chronix.ingest.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.chronix.ingest.ChronixServer;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.importer.CsvImporter;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code chronix backup} of a running server (buffered points included) and {@code chronix
 * restore} into a fresh server: every query answers the same.
 */
class BackupRestoreTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private static final List<String> QUERIES = List.of(
      "/solr/chronix/query?q=" + enc("name:*Load*") + "&cj=*&fl=name,host,points",
      "/solr/chronix/query?q=" + enc("name:*") + "&cf=" + enc("metric{max;count;outlier}") + "&fl=name,host",
      "/solr/chronix/select?q=*:*&rows=0",
      "/api/v1/series?match[]=" + enc("{__name__=~\".+\"}") + "&start=0",
      "/api/v1/query_range?query=" + enc("{__name__=\"\\\\Load\\\\avg\"}") + "&start=1439391600&end=1439400600&step=60",
      "/api/v1/export?match[]=" + enc("{__name__=~\".+\"}"));

  @TempDir Path dir;

  @Test
  void aRestoredServerAnswersEveryQueryAsTheBackedUpOne() throws Exception {
    Path backup = dir.resolve("backup");
    try (ChronixServer original = server("original"); ChronixServer fresh = server("fresh")) {
      List<Path> files;
      try (Stream<Path> list = Files.list(Path.of(System.getProperty("chronix.p4.dir", "../shared/data/p4")))) {
        files = list.filter(f -> f.toString().contains("Load") || f.toString().contains("Usage-used")).sorted().toList();
      }
      assertEquals(List.of(), new CsvImporter(URI.create(original.baseUrl()), ZoneOffset.UTC,
          new PrintStream(new ByteArrayOutputStream()), false).importFiles(files, 2).failures());
      // still buffered when the backup starts: it must be in the backup all the same
      post(original.baseUrl() + "/write?precision=ms", "late,host=a value=42 1439400000000\n");

      assertEquals(0, cli("backup", backup.toString(), "--http-port", String.valueOf(original.port())));
      assertTrue(Files.isDirectory(backup.resolve("snapshot.chronix")));
      assertEquals(2, cli("backup", backup.toString(), "--http-port", String.valueOf(original.port())),
          "a directory that holds a backup is not overwritten");
      assertEquals(2, cli("restore", dir.resolve("nothing").toString(), "--http-port", String.valueOf(fresh.port())));

      assertEquals(0, cli("restore", backup.toString(), "--http-port", String.valueOf(fresh.port())));
      for (String query : QUERIES) {
        assertEquals(answer(original, query), answer(fresh, query), query);
      }
      assertTrue(answer(fresh, "/solr/chronix/query?q=name:late&fl=points").toString().contains("42"));

      // the export command writes what /api/v1/export answers
      Path exported = dir.resolve("export.jsonl");
      assertEquals(0, cli("export", "--match", "{__name__=~\".+\"}", "--out", exported.toString(), "--http-port",
          String.valueOf(fresh.port())));
      assertEquals(answer(original, QUERIES.get(QUERIES.size() - 1)),
          JSON.valueToTree(Stream.of(Files.readString(exported).split("\n")).sorted().toList()));
      assertEquals(2, cli("export", "--match", "{oops", "--out", exported.toString(), "--http-port",
          String.valueOf(fresh.port())), "a bad selector is a usage error");
    }
  }

  private ChronixServer server(String name) throws Exception {
    return new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dir.resolve(name).toString())).start();
  }

  private static int cli(String... args) {
    return ChronixCli.run(args);
  }

  /** The answer without what differs between two servers for the same data (timings). */
  private static JsonNode answer(ChronixServer server, String query) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + query)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), query + ": " + response.body());
    if (query.startsWith("/api/v1/export")) {
      return JSON.valueToTree(Stream.of(response.body().split("\n")).sorted().toList());
    }
    JsonNode json = JSON.readTree(response.body());
    return json.has("response") ? json.get("response") : json.get("data");
  }

  private static void post(String url, String body) throws Exception {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(url))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(204, response.statusCode(), response.body());
  }

  private static String enc(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }
}
