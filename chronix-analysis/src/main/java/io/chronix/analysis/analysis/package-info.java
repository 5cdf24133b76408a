/**
 * Functions that decide whether a series shows a behaviour (a trend, outliers, a shape, a burst,
 * an anomaly) and report the numbers behind the decision, so that a user can judge the verdict.
 */
package io.chronix.analysis.analysis;
