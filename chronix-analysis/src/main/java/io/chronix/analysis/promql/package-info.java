/**
 * PromQL over an abstract series source: the parser ({@code parser}, ANTLR grammar in
 * {@code src/main/antlr4}), the syntax tree ({@code ast}), labels and matchers ({@code model}) and
 * the evaluator ({@code engine}), kept apart as Prometheus keeps its parser and engine. Semantics
 * follow Prometheus 3 (docs/promql.md lists the few differences).
 */
package io.chronix.analysis.promql;
