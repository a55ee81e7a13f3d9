/** Text encoding shared by persistence and hashing. Not API. */
package io.joblib4j.internal.text;
