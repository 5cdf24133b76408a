package io.chronix.ingest.solr;

import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import javax.servlet.Filter;
import javax.servlet.FilterChain;
import javax.servlet.ServletException;
import javax.servlet.ServletRequest;
import javax.servlet.ServletResponse;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.common.params.MultiMapSolrParams;
import org.apache.solr.common.params.ShardParams;
import org.apache.solr.common.util.ExecutorUtil;
import org.apache.solr.common.util.SimpleOrderedMap;
import org.apache.solr.core.CoreContainer;
import org.apache.solr.core.RequestHandlers;
import org.apache.solr.core.SolrCore;
import org.apache.solr.logging.MDCLoggingContext;
import org.apache.solr.logging.MDCSnapshot;
import org.apache.solr.request.SolrQueryRequest;
import org.apache.solr.request.SolrRequestHandler;
import org.apache.solr.request.SolrRequestInfo;
import org.apache.solr.response.QueryResponseWriter;
import org.apache.solr.response.QueryResponseWriterUtil;
import org.apache.solr.response.SolrQueryResponse;
import org.apache.solr.servlet.ResponseUtils;
import org.apache.solr.servlet.SolrRequestParsers;
import org.apache.solr.servlet.cache.HttpCacheHeaderUtil;
import org.apache.solr.servlet.cache.Method;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * GETs of the series query handlers of the embedded node's own cores ({@code /<core>/query},
 * {@code /<core>/select}), handed to the core in the request's thread as Solr's dispatch would
 * process them, without the dispatch around it: a tracing span built from every header, the rate
 * limiter, the logging context, finding the core by path and choosing an action cost 10-20 us of
 * CPU a request, 5-8 % of a one-series query's (docs/benchmarks.md), on a node that has nothing to
 * trace, limit, proxy or authorize. The request is parsed as the core's own request parsers parse
 * it, executed by {@link SolrCore#execute}, and written by the handler's response writer with the
 * headers and the error section Solr's dispatch gives. Anything else goes on to Solr's dispatch: other methods and
 * paths, requests with {@code shards} or content streams, and a node with authentication,
 * authorization or audit logging configured, or in SolrCloud.
 */
public final class LocalQueryDispatch implements Filter {

  private static final Logger LOG = LoggerFactory.getLogger(LocalQueryDispatch.class);
  private static final Set<String> HANDLERS = Set.of("/query", "/select");

  private final Supplier<CoreContainer> cores;
  /** The one core this route answers for, or null for any of the node's. */
  private final String onlyCore;
  private final LongAdder answered = new LongAdder();

  /** @param cores the node's container, null until it is up */
  public LocalQueryDispatch(Supplier<CoreContainer> cores) {
    this(cores, null);
  }

  /** @param onlyCore the one core whose queries this route answers; those of others go on down the chain */
  public LocalQueryDispatch(Supplier<CoreContainer> cores, String onlyCore) {
    this.cores = cores;
    this.onlyCore = onlyCore;
  }

  /** How many requests this route answered, rather than Solr's dispatch. */
  long answered() {
    return answered.sum();
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    if (!handled((HttpServletRequest) request, (HttpServletResponse) response)) {
      chain.doFilter(request, response);
    }
  }

  private boolean handled(HttpServletRequest request, HttpServletResponse response) throws IOException {
    if (!"GET".equals(request.getMethod())) {
      return false;
    }
    String path = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
    int slash = path.indexOf('/', 1);
    if (slash < 0 || !HANDLERS.contains(path.substring(slash))) {
      return false;
    }
    String coreName = path.substring(1, slash);
    if (onlyCore != null && !onlyCore.equals(coreName)) {
      return false;
    }
    CoreContainer container = cores.get();
    if (container == null || !plainNode(container)) {
      return false;
    }
    try (SolrCore core = container.getCore(coreName)) {
      if (core == null) {
        return false;
      }
      String handlerPath = path.substring(slash);
      SolrRequestHandler handler = core.getRequestHandler(handlerPath);
      if (handler == null) {
        return false;
      }
      SolrQueryRequest solrRequest = parse(core, handlerPath, request);
      if (solrRequest == null) {
        return false;
      }
      process(core, handler, solrRequest, response);
      answered.increment();
      return true;
    }
  }

  /** No security or audit plugins, no ZooKeeper: nothing of Solr's dispatch applies but the core's work. */
  private static boolean plainNode(CoreContainer container) {
    return !container.isZooKeeperAware() && !container.isShutDown() && container.getAuthenticationPlugin() == null
        && container.getAuthorizationPlugin() == null && container.getAuditLoggerPlugin() == null;
  }

  /** The request as Solr's dispatch parses it, or null where it has parts this filter leaves to Solr. */
  private static SolrQueryRequest parse(SolrCore core, String handlerPath, HttpServletRequest request) {
    SolrQueryRequest solrRequest;
    try {
      SolrRequestParsers parsers = core.getSolrConfig().getRequestParsers();
      solrRequest = request.getContentType() == null ? plainGet(core, parsers, handlerPath, request) : null;
      if (solrRequest == null) {
        solrRequest = parsers.parse(core, handlerPath, request);
      }
    } catch (Exception e) {
      return null; // Solr's dispatch answers it with the error it finds
    }
    // content streams (remote streaming, where allowed) and distributed searches stay with Solr's dispatch
    if (solrRequest.getContentStreams() != null || solrRequest.getParams().get(ShardParams.SHARDS) != null) {
      solrRequest.close();
      return null;
    }
    solrRequest.getContext().put("webapp", request.getContextPath());
    return solrRequest;
  }

  /**
   * A GET without a body, as Solr's parsers build it from its query string (their standard parser
   * reads a GET without a content type by its query string alone), with the string read by
   * {@link QueryStringParams}; null where that leaves the string to Solr's parser.
   */
  private static SolrQueryRequest plainGet(SolrCore core, SolrRequestParsers parsers, String handlerPath,
      HttpServletRequest request) throws Exception {
    MultiMapSolrParams params = QueryStringParams.parse(request.getQueryString());
    if (params == null) {
      return null;
    }
    // stream.body and stream.url parameters become content streams here, as in Solr's parse
    SolrQueryRequest solrRequest =
        parsers.buildRequestFrom(core, params, new ArrayList<>(1), request.getUserPrincipal());
    solrRequest.getContext().put("path", RequestHandlers.normalize(handlerPath));
    solrRequest.getContext().put("httpMethod", SolrRequest.METHOD.GET);
    if (parsers.isAddRequestHeadersToContext()) {
      solrRequest.getContext().put("httpRequest", request);
    }
    return solrRequest;
  }

  /**
   * In the thread's state Solr's dispatch gives a request: its class loader, request info and
   * logging context; all of it as before once the answer is written. The logging context is
   * restored whole, as Solr's dispatch restores it: the search handler adds the request's id to it,
   * which otherwise stayed on Jetty's thread for whatever that thread ran next (in any log line of a
   * pattern that prints the context).
   */
  private static void process(SolrCore core, SolrRequestHandler handler, SolrQueryRequest solrRequest,
      HttpServletResponse response) throws IOException {
    SolrQueryResponse solrResponse = new SolrQueryResponse();
    Thread thread = Thread.currentThread();
    ClassLoader loader = thread.getContextClassLoader();
    MDCSnapshot logging = MDCSnapshot.create();
    thread.setContextClassLoader(core.getCoreContainer().getResourceLoader().getClassLoader());
    ExecutorUtil.setServerThreadFlag(Boolean.TRUE);
    SolrRequestInfo.setRequestInfo(new SolrRequestInfo(solrRequest, solrResponse));
    MDCLoggingContext.setCore(core);
    try {
      HttpCacheHeaderUtil.setCacheControlHeader(core.getSolrConfig(), response, Method.GET);
      core.execute(handler, solrRequest, solrResponse);
      HttpCacheHeaderUtil.checkHttpCachingVeto(solrResponse, response, Method.GET);
      for (Iterator<Map.Entry<String, String>> headers = solrResponse.httpHeaders(); headers.hasNext(); ) {
        Map.Entry<String, String> header = headers.next();
        response.addHeader(header.getKey(), header.getValue());
      }
      write(core, solrRequest, solrResponse, response);
    } catch (RuntimeException e) {
      // what Solr's dispatch answers for a failure outside the handler, where the answer is not on its way yet
      if (response.isCommitted()) {
        throw e;
      }
      response.resetBuffer(); // whatever the writer had buffered of the failed answer, its headers kept
      SolrQueryResponse failed = new SolrQueryResponse();
      failed.setException(e);
      try {
        write(core, solrRequest, failed, response);
      } catch (RuntimeException again) { // the writer fails on the error as well: the plain error Solr's dispatch sends then
        SimpleOrderedMap<Object> info = new SimpleOrderedMap<>();
        response.sendError(errorInfo(core, e, info), info.toString());
      }
    } finally {
      MDCLoggingContext.clear();
      logging.close();
      SolrRequestInfo.clearRequestInfo();
      solrRequest.close();
      ExecutorUtil.setServerThreadFlag(null);
      thread.setContextClassLoader(loader);
    }
  }

  /** Fills in Solr's error section for the failure (logging it as Solr does) and gives its HTTP status. */
  private static int errorInfo(SolrCore core, Throwable failure, SimpleOrderedMap<Object> info) {
    return ResponseUtils.getErrorInfo(failure, info, LOG, core.getCoreContainer().hideStackTrace());
  }

  /** As Solr's dispatch writes an answer: its writer's content type, an error's code and section. */
  private static void write(SolrCore core, SolrQueryRequest solrRequest, SolrQueryResponse solrResponse,
      HttpServletResponse response) throws IOException {
    QueryResponseWriter writer = solrRequest.getResponseWriter();
    String contentType = writer.getContentType(solrRequest, solrResponse);
    if (contentType != null) {
      response.setContentType(contentType);
    }
    if (solrResponse.getException() != null) {
      SimpleOrderedMap<Object> info = new SimpleOrderedMap<>();
      int code = errorInfo(core, solrResponse.getException(), info);
      solrResponse.add("error", info);
      response.setStatus(code);
    }
    try {
      QueryResponseWriterUtil.writeQueryResponse(response.getOutputStream(), writer, solrRequest, solrResponse,
          contentType);
    } catch (EOFException e) {
      LOG.info("Unable to write response, client closed connection or we are shutting down", e);
    }
  }
}
