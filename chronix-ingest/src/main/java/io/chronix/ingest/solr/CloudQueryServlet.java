package io.chronix.ingest.solr;

import io.chronix.ingest.http.JsonResponses;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.apache.solr.client.solrj.SolrClient;
import org.apache.solr.client.solrj.SolrRequest;
import org.apache.solr.client.solrj.SolrServerException;
import org.apache.solr.client.solrj.impl.InputStreamResponseParser;
import org.apache.solr.client.solrj.request.GenericSolrRequest;
import org.apache.solr.common.params.ModifiableSolrParams;
import org.apache.solr.common.util.NamedList;

/**
 * {@code /solr/<collection>/query} and {@code /select} on an ingest node in SolrCloud mode: the
 * request goes on to a live replica of the collection through the cluster client (which follows
 * node losses), and the Solr node's answer comes back as it is. So clients and dashboards can
 * keep one address, any ingest node's. Other Solr paths are for the Solr nodes themselves.
 */
public final class CloudQueryServlet extends HttpServlet {

  private final transient SolrClient cloud;
  private final String collection;

  public CloudQueryServlet(SolrClient cloud, String collection) {
    this.cloud = cloud;
    this.collection = collection;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
    forward(request, response);
  }

  @Override
  protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
    forward(request, response); // form-encoded parameters, as Solr takes them
  }

  private void forward(HttpServletRequest request, HttpServletResponse response) throws IOException {
    String path = request.getPathInfo() == null ? "" : request.getPathInfo();
    String handler = path.equals("/" + collection + "/query") ? "/query"
        : path.equals("/" + collection + "/select") ? "/select" : null;
    if (handler == null) {
      JsonResponses.error(response, 404, "in SolrCloud mode an ingest node passes on /solr/" + collection
          + "/query and /solr/" + collection + "/select only; ask a Solr node of the cluster for " + "/solr" + path);
      return;
    }
    ModifiableSolrParams params = new ModifiableSolrParams();
    for (Map.Entry<String, String[]> parameter : request.getParameterMap().entrySet()) {
      params.set(parameter.getKey(), parameter.getValue());
    }
    String format = params.get("wt", "json");
    GenericSolrRequest query = new GenericSolrRequest(SolrRequest.METHOD.POST, handler, params);
    query.setRequiresCollection(true);
    query.setResponseParser(new InputStreamResponseParser(format));
    NamedList<Object> answer;
    try {
      answer = cloud.request(query, collection);
    } catch (SolrServerException | IOException | RuntimeException e) {
      response.setHeader("Retry-After", "1");
      JsonResponses.error(response, 503, "no Solr node of collection " + collection + " answered: " + e.getMessage());
      return;
    }
    Object status = answer.get("responseStatus");
    response.setStatus(status instanceof Number number ? number.intValue() : 200);
    response.setContentType(contentType(format));
    try (InputStream body = (InputStream) answer.get("stream")) {
      body.transferTo(response.getOutputStream());
    }
  }

  private static String contentType(String format) {
    return switch (format) {
      case "xml" -> "application/xml; charset=UTF-8";
      case "csv" -> "text/csv; charset=UTF-8";
      case "javabin" -> "application/octet-stream";
      default -> "application/json; charset=UTF-8";
    };
  }
}
