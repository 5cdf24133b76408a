package io.chronix.ingest.compaction;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A compaction test run four times: with a client over HTTP, and with the embedded node's own
 * client, through which the server's compactor reads in its own thread ({@link
 * CompactionServer#client}); each with the full records that overlap a batch's groups found by one
 * walk of the batch's range of ids, and by a query a series ({@link Compactor.Sizes#walked}). The
 * test method takes the choices as its {@code boolean embedded, boolean walked} parameters.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@ParameterizedTest(name = "embedded client: {0}, range walked: {1}")
@CsvSource({"false, true", "true, true", "false, false", "true, false"})
@interface OverClientsAndQueries {}
