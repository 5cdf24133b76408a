/**
 * Functions that turn a series into another series. They run before aggregations and analyses,
 * and they never modify their input, because the same decoded series may serve several requests.
 */
package io.chronix.analysis.transformation;
