/** Test doubles and capture helpers for the core's tests. */
package io.joblib4j.testing;
