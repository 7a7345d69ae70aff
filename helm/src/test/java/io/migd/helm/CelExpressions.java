package io.migd.helm;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.SimpleType;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import java.util.Map;

/**
 * Evaluates the chart's CEL expressions as the API server and the scheduler do: the standard
 * environment with optional types ({@code [?key]}, {@code .?field}, {@code orValue}) and the
 * strings library ({@code join}), and the variables an admission policy ({@code request}, {@code
 * object}, {@code oldObject}, {@code variables}) or a device selector ({@code device}) sees, as
 * untyped JSON-like maps.
 */
final class CelExpressions {
  private static final Cel CEL =
      CelFactory.standardCelBuilder()
          .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
          .addCompilerLibraries(CelExtensions.optional(), CelExtensions.strings())
          .addRuntimeLibraries(CelExtensions.optional(), CelExtensions.strings())
          .addVar("request", SimpleType.DYN)
          .addVar("object", SimpleType.DYN)
          .addVar("oldObject", SimpleType.DYN)
          .addVar("variables", SimpleType.DYN)
          .addVar("device", SimpleType.DYN)
          .build();

  private CelExpressions() {}

  /** The value of {@code expression} with these variables. */
  static Object eval(String expression, Map<String, ?> variables) {
    try {
      return CEL.createProgram(CEL.compile(expression).getAst()).eval(variables);
    } catch (CelValidationException | CelEvaluationException e) {
      throw new AssertionError(expression + ": " + e.getMessage(), e);
    }
  }

  /** The value of a boolean {@code expression} with these variables. */
  static boolean test(String expression, Map<String, ?> variables) {
    return (Boolean) eval(expression, variables);
  }
}
