/** Runnable programs showing joblib4j on real questions: see each class's description for how to run it. */
package io.joblib4j.examples;
