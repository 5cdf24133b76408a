package io.chronix.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.core.csv.P4CsvReader;
import io.chronix.core.csv.P4File;
import io.chronix.core.series.Points;
import io.chronix.ingest.config.ServerConfig;
import io.chronix.ingest.importer.CsvImporter;
import io.chronix.ingest.security.Credentials;
import io.chronix.ingest.security.PasswordHash;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.commons.math3.stat.descriptive.rank.Percentile;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.TestInstance;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.logging.LogEntry;
import org.openqa.selenium.logging.LogType;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web console in a real browser (Debian's headless Chromium): P4 loaded into a server with
 * auth on, the console signs in as a user with the read role only, picks a series by its facets,
 * plots it, runs an outlier query and a PromQL query, and shows the server's 400 messages. The
 * numbers of points drawn and outliers marked are checked against the raw CSV data. Screenshots
 * go to target/console-screenshots; a failure prints the browser's console log.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConsoleBrowserTest {

  private static final Path P4 = Path.of(System.getProperty("chronix.p4.dir", "../shared/data/p4"));
  private static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
  /** P4 was recorded on 2015-08-12 (UTC as imported): the console looks at two days from then. */
  private static final long FROM = 1_439_337_600_000L;
  private static final long TO = 1_439_510_400_000L;
  private static final String READER = "viewer";
  private static final String READER_PASSWORD = "look-only";

  /** Removed by JUnit after the class (and the servers and clusters its @AfterAll closes). */
  @TempDir
  static Path dataDir;
  private ChronixServer server;
  private WebDriver browser;
  private List<P4File> files;

  @BeforeAll
  void startServerAndBrowser() throws Exception {
    String loader = "load-token";
    server = new ChronixServer(ServerConfig.defaults().withEphemeralPorts()
        .with("data.dir", dataDir.resolve("data").toString())
        .with("auth.enabled", "true")
        .with("auth.user." + READER + ".roles", "read")
        .with("auth.user." + READER + ".password", PasswordHash.hash(READER_PASSWORD.toCharArray()))
        .with("auth.token.loader.roles", "write")
        .with("auth.token.loader.sha256", Credentials.hashToken(loader))).start();
    List<Path> csv;
    try (Stream<Path> list = Files.list(P4)) {
      csv = list.filter(f -> f.toString().endsWith(".csv.gz")).sorted().toList();
    }
    CsvImporter.Summary summary = new CsvImporter(URI.create(server.baseUrl()), ZoneOffset.UTC,
        new PrintStream(new ByteArrayOutputStream()), false).withToken(loader).importFiles(csv, 2);
    assertEquals(List.of(), summary.failures());
    P4CsvReader reader = new P4CsvReader(ZoneOffset.UTC);
    files = new java.util.ArrayList<>();
    for (Path file : csv) {
      files.add(reader.read(file));
    }
    browser = startBrowser(Files.createDirectories(dataDir.resolve("browser-tmp")));
  }

  @AfterAll
  void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (server != null) {
      server.close();
    }
  }

  /**
   * Chromium keeps its singleton lock (a socket and a cookie) in a directory of its temporary
   * directory and leaves it there: under /tmp, every run of this test left one behind.
   */
  private static WebDriver startBrowser(Path temporary) {
    for (String needed : List.of("/usr/bin/chromium", "/usr/bin/chromedriver")) {
      assertTrue(new File(needed).canExecute(), needed + " is missing: run scripts/install-test-deps.sh as root "
          + "(Debian packages chromium and chromium-driver)");
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary("/usr/bin/chromium");
    // no network beyond loopback here: keep Chromium from trying
    options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
        "--window-size=1400,1000");
    options.setCapability("goog:loggingPrefs", Map.of(LogType.BROWSER, "ALL"));
    ChromeDriverService service = new ChromeDriverService.Builder()
        .usingDriverExecutable(new File("/usr/bin/chromedriver")).usingAnyFreePort()
        .withEnvironment(Map.of("TMPDIR", temporary.toString())).build();
    return new ChromeDriver(service, options);
  }

  @Test
  void exploreQueryAndAnalyseInTheBrowser() throws Exception {
    try {
      browser.get(server.baseUrl() + "/#range=custom&from=" + FROM + "&to=" + TO);
      signIn();

      // the series browser: a metric with two series, narrowed by a facet to one, plotted
      String metric = "java.lang:name=PS Eden Space,type=MemoryPool/PeakUsage/max";
      click(By.cssSelector("#metrics li[data-metric='" + metric + "']"));
      await(d -> text("series-count").equals("(2)"), "two series of " + metric);
      click(By.cssSelector(".facet[data-attribute='process'] span[data-value='base']"));
      await(d -> text("series-count").equals("(1)"), "the facet leaves one series");
      click(By.cssSelector("#series li"));
      awaitChart();
      assertEquals(1, chartNumber("series"));
      assertEquals(0, chartNumber("interval") % 60_000, "plot intervals are whole minutes (rollup tiers answer them)");
      assertEquals(expectedBuckets(series(metric, "base"), chartNumber("interval")), chartNumber("points"),
          "one point per interval of the plot's width that holds raw points");
      screenshot("1-series-from-facets");

      // an outlier analysis: the intervals holding points beyond the bounds are marked
      setQuery("name:\"\\\\Load\\\\max\"", "metric{outlier;trend}");
      click(By.id("chronix-run"));
      awaitChart();
      Points load = series("\\Load\\max", "global");
      long interval = chartNumber("interval");
      assertEquals(expectedBuckets(load, interval), chartNumber("points"));
      long outlierBuckets = expectedOutlierBuckets(load, interval);
      assertTrue(outlierBuckets > 0, "\\Load\\max has outliers in P4");
      assertEquals(outlierBuckets, chartNumber("markers"), "every interval with an outlier is marked");
      assertEquals(1, chartNumber("trends"), "the trend line is drawn");
      String table = browser.findElement(By.id("results")).getText();
      assertTrue(table.contains("outlier") && table.contains("matches") && table.contains("trend"), table);
      screenshot("2-outliers-and-trend");

      // the server's 400 next to the input
      setQuery("name:\"\\\\Load\\\\max\"", "metric{nope}");
      click(By.id("chronix-run"));
      await(d -> text("chronix-error").contains("unknown function 'nope'"), "the 400 message shown");

      // PromQL: one point per step wherever the series had a sample in the 5-minute lookback
      click(By.cssSelector(".tabs button[data-lang='promql']"));
      WebElement expr = browser.findElement(By.id("promql-expr"));
      expr.clear();
      expr.sendKeys("{__name__=\"\\\\Load\\\\max\"}");
      click(By.id("promql-run"));
      awaitChart();
      long step = chartNumber("interval");
      assertEquals(expectedSteps(load, step), chartNumber("points"));
      screenshot("3-promql");
      expr.clear();
      expr.sendKeys("rate(");
      click(By.id("promql-run"));
      await(d -> !text("promql-error").isEmpty(), "the PromQL parse error shown");
      assertTrue(text("promql-error").contains("unexpected end of input") || text("promql-error").contains("parse"),
          text("promql-error"));

      // the status page, read with the read role
      click(By.cssSelector("header nav a[data-page='status']"));
      await(d -> text("ingest-rates").contains("influx"), "ingest counters on the status page");
      assertTrue(text("storage-figures").contains("stored points"), text("storage-figures"));
      screenshot("4-status");
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError(e.getMessage() + "\nbrowser console:\n" + browserLog(), e);
    }
  }

  @Test
  void metricsAreForTheReadRoleDeletesForAdminsAndTheConsoleFilesForAnybody() throws Exception {
    HttpClient http = TestHttp.CLIENT;
    String basic = "Basic " + Base64.getEncoder().encodeToString((READER + ":" + READER_PASSWORD)
        .getBytes(StandardCharsets.UTF_8));
    HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/metrics"))
        .header("Authorization", basic).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(200, metrics.statusCode(), metrics.body());
    assertTrue(metrics.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
    assertTrue(metrics.body().contains("chronix_ingested_points_total{protocol=\"influx\"} " + totalPoints() + ".0"),
        metrics.body());
    HttpResponse<String> delete = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl()
        + "/api/v1/admin/tsdb/delete_series?match[]=up")).header("Authorization", basic)
        .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(403, delete.statusCode(), "deleting needs the admin role: " + delete.body());
    HttpResponse<String> anonymous = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/metrics"))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(401, anonymous.statusCode());
    assertTrue(anonymous.headers().firstValue("WWW-Authenticate").isPresent(), "others get the Basic challenge");
    HttpResponse<String> fromConsole = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/metrics"))
        .header("X-Chronix-Console", "1").build(), HttpResponse.BodyHandlers.ofString());
    assertEquals(401, fromConsole.statusCode());
    assertTrue(fromConsole.headers().firstValue("WWW-Authenticate").isEmpty(), "no browser dialog over the console");
    for (String file : List.of("/console/", "/console/js/main.js", "/console/console.css")) {
      HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + file)).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, page.statusCode(), file);
    }
    HttpResponse<String> root = http.send(HttpRequest.newBuilder(URI.create(server.baseUrl() + "/")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(302, root.statusCode());
    assertTrue(root.headers().firstValue("Location").orElse("").endsWith("/console/"));
  }

  private long totalPoints() {
    long points = 0;
    for (P4File file : files) {
      points += file.points().size();
    }
    return points;
  }

  private void signIn() {
    WebElement dialog = new WebDriverWait(browser, Duration.ofSeconds(30))
        .until(ExpectedConditions.visibilityOfElementLocated(By.id("login")));
    dialog.findElement(By.name("user")).sendKeys(READER);
    dialog.findElement(By.name("password")).sendKeys(READER_PASSWORD);
    click(By.id("login-submit"));
    await(d -> text("user").contains(READER), "signed in");
  }

  private void setQuery(String q, String cf) {
    click(By.cssSelector(".tabs button[data-lang='chronix']"));
    for (Map.Entry<String, String> field : Map.of("chronix-q", q, "chronix-cf", cf, "chronix-cj", "", "chronix-fq", "")
        .entrySet()) {
      WebElement input = browser.findElement(By.id(field.getKey()));
      input.clear();
      input.sendKeys(field.getValue());
    }
  }

  private void click(By what) {
    new WebDriverWait(browser, Duration.ofSeconds(30)).until(ExpectedConditions.elementToBeClickable(what)).click();
  }

  private void await(java.util.function.Function<WebDriver, Boolean> condition, String what) {
    new WebDriverWait(browser, Duration.ofSeconds(30)).withMessage(what).until(condition);
  }

  /** Waits for the run that was just started to draw (the chart is marked "running" until then). */
  private void awaitChart() {
    await(d -> {
      String state = browser.findElement(By.id("chart")).getAttribute("data-state");
      if ("failed".equals(state)) {
        throw new AssertionError("the query failed: " + text("chronix-error") + text("promql-error"));
      }
      return "drawn".equals(state);
    }, "the chart drawn");
  }

  private String text(String id) {
    return browser.findElement(By.id(id)).getText();
  }

  private long chartNumber(String attribute) {
    return Long.parseLong(browser.findElement(By.id("chart")).getAttribute("data-" + attribute));
  }

  private Points series(String name, String process) {
    for (P4File file : files) {
      if (file.key().name().equals(name) && process.equals(file.key().attributes().get("process"))) {
        return deduplicated(file.points());
      }
    }
    throw new AssertionError("no P4 file of " + name + " in process " + process);
  }

  /** One value per timestamp, the last one read: what the store keeps of a re-sent point. */
  private static Points deduplicated(Points points) {
    TreeMap<Long, Double> byTime = new TreeMap<>();
    for (int i = 0; i < points.size(); i++) {
      byTime.put(points.timestamp(i), points.value(i));
    }
    Points unique = new Points();
    byTime.forEach(unique::add);
    return unique;
  }

  private static long millis(Points points, int i) {
    return Math.floorDiv(points.timestamp(i), 1_000_000L);
  }

  /** Intervals (aligned to the epoch) within the range that hold at least one raw point. */
  private static long expectedBuckets(Points points, long interval) {
    Set<Long> buckets = new HashSet<>();
    for (int i = 0; i < points.size(); i++) {
      long t = millis(points, i);
      if (t >= FROM && t <= TO) {
        buckets.add(Math.floorDiv(t, interval));
      }
    }
    return buckets.size();
  }

  /** Intervals holding a point beyond the outlier bounds (Q1 - 1.5 IQR, Q3 + 1.5 IQR) of the range's points. */
  private static long expectedOutlierBuckets(Points points, long interval) {
    double[] values = new double[points.size()];
    for (int i = 0; i < points.size(); i++) {
      values[i] = points.value(i);
    }
    Percentile percentile = new Percentile();
    percentile.setData(values);
    double q1 = percentile.evaluate(25);
    double q3 = percentile.evaluate(75);
    double upper = q3 + 1.5 * (q3 - q1);
    double lower = q1 - 1.5 * (q3 - q1);
    Set<Long> buckets = new HashSet<>();
    for (int i = 0; i < points.size(); i++) {
      if (points.value(i) > upper || points.value(i) < lower) {
        buckets.add(Math.floorDiv(millis(points, i), interval));
      }
    }
    return buckets.size();
  }

  /** Steps of a range query (start, start + step, ... end) with a sample in the 5-minute lookback before them. */
  private static long expectedSteps(Points points, long stepMillis) {
    long count = 0;
    int i = 0;
    for (long t = FROM; t <= TO; t += stepMillis) {
      while (i < points.size() && millis(points, i) <= t) {
        i++;
      }
      if (i > 0 && millis(points, i - 1) > t - 300_000) {
        count++;
      }
    }
    return count;
  }

  private void screenshot(String name) throws Exception {
    Files.createDirectories(SCREENSHOTS);
    byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
    Files.write(SCREENSHOTS.resolve(name + ".png"), png);
  }

  private String browserLog() {
    try {
      return browser.manage().logs().get(LogType.BROWSER).getAll().stream().map(LogEntry::toString)
          .collect(Collectors.joining("\n"));
    } catch (RuntimeException e) {
      return "(the browser's log could not be read: " + e + ")";
    }
  }
}
