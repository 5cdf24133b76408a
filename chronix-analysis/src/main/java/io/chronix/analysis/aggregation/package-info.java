/**
 * Functions that reduce a series to one number. They are computed with Commons Math so that the
 * numbers agree with what users get from the same library (and from the original Chronix).
 */
package io.chronix.analysis.aggregation;
