package io.chronix.solr.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.chronix.solr.response.FieldList;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
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

  /** As a split on the regex {@code [,\s]+} with empty names left out, which it replaces. */
  @Test
  void splitsAsTheRegexOfCommasAndWhiteSpace() {
    Pattern separators = Pattern.compile("[,\\s]+");
    String alphabet = "ab,, \t\n\u000B\f\r\u00a0\u2003é_";
    Random random = new Random(20261130);
    for (int i = 0; i < 5_000; i++) {
      StringBuilder list = new StringBuilder();
      for (int n = random.nextInt(12); n > 0; n--) {
        list.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      List<String> expected = new ArrayList<>();
      for (String name : separators.split(list)) {
        if (!name.isEmpty()) {
          expected.add(name);
        }
      }
      assertEquals(expected, FieldNames.split(list.toString()), () -> "'" + list + "'");
    }
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
