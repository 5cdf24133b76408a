package io.chronix.analysis.promql.engine;

/**
 * A query that cannot be answered, with the error type of Prometheus' HTTP API: {@code bad_data}
 * (the query or its parameters are wrong), {@code execution} (it failed while running),
 * {@code timeout}, {@code canceled}.
 */
public class PromQlException extends RuntimeException {

  public enum Type {
    BAD_DATA("bad_data"), EXECUTION("execution"), TIMEOUT("timeout"), CANCELED("canceled"), INTERNAL("internal"),
    /** The store cannot take the query now (the points the queries in flight decode); retry later. */
    UNAVAILABLE("unavailable");

    private final String apiName;

    Type(String apiName) {
      this.apiName = apiName;
    }

    public String apiName() {
      return apiName;
    }
  }

  private final Type type;

  public PromQlException(Type type, String message) {
    super(message);
    this.type = type;
  }

  public PromQlException(Type type, String message, Throwable cause) {
    super(message, cause);
    this.type = type;
  }

  public Type type() {
    return type;
  }

  public static PromQlException execution(String message) {
    return new PromQlException(Type.EXECUTION, message);
  }

  public static PromQlException badData(String message) {
    return new PromQlException(Type.BAD_DATA, message);
  }
}
