/**
 * joblib4j for Scala: {@code import io.joblib4j.scala._} (the package object, in
 * {@code package.scala}) makes Scala functions, method values and collections work with the Java
 * API. This file only marks the package's stability: a Scala package object cannot carry a Java
 * annotation itself.
 */
@API(status = API.Status.STABLE, since = "0.1")
package io.joblib4j.scala;

import org.apiguardian.api.API;
