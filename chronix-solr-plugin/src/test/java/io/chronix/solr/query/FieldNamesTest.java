package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.solr.response.FieldList;
import java.util.List;
import org.apache.solr.common.SolrException;
import org.junit.jupiter.api.Test;

/** The lists of field names in {@code cj} and {@code fl}: any run of commas and white space separates two names. */
class FieldNamesTest {

  @Test
  void splitsOnRunsOfCommasAndWhiteSpace() {
    assertEquals(List.of("host", "process", "metric"), FieldNames.split(" host,\tprocess ,,\n metric, "));
    assertEquals(List.of("name"), FieldNames.split("name"));
    assertEquals(List.of(), FieldNames.split(""));
    assertEquals(List.of(), FieldNames.split(" ,\t"));
  }

  @Test
  void joinFieldsKeepTheirOrderOnceEachAndRefuseRecordFields() {
    assertEquals(List.of("host", "name"), JoinFields.parse("host\tname, host").fields());
    assertSame(JoinFields.DEFAULT, JoinFields.parse(" , "));
    assertEquals(List.of(), JoinFields.parse(" * ").fields());
    SolrException e = assertThrows(SolrException.class, () -> JoinFields.parse("host,\nstart"));
    assertTrue(e.getMessage().contains("'start'"), e.getMessage());
  }

  @Test
  void fieldListsTakeNamesFromEveryValue() {
    FieldList fl = FieldList.parse(new String[] {"name,\thost", " points "});
    assertTrue(fl.wants("name"));
    assertTrue(fl.wants("host"));
    assertFalse(fl.wants("process"));
    assertTrue(fl.points());
    assertTrue(FieldList.parse(new String[] {", "}).wants("process")); // no names: every field
  }
}
