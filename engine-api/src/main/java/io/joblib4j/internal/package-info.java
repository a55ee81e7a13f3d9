/**
 * Implementation details shared by the rest of joblib4j. Not API: anything here may change in
 * any release.
 */
package io.joblib4j.internal;
