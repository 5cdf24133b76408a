package io.chronix.ingest.compaction;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A compaction test run twice: with a client over HTTP, and with the embedded node's own client,
 * through which the server's compactor reads in its own thread ({@link CompactionServer#client}).
 * The test method takes the choice as its {@code boolean embedded} parameter.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "embedded client: {0}")
@ValueSource(booleans = {false, true})
@interface OverBothClients {}
