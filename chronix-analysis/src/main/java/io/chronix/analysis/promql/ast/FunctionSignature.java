package io.chronix.analysis.promql.ast;

import java.util.List;

/**
 * Name and argument types of a function. {@code variadic}: how many trailing arguments may be
 * left out (a positive number), or -1 for any number of repetitions of the last argument type.
 */
public record FunctionSignature(String name, List<ValueType> argTypes, int variadic, ValueType returnType) {

  public FunctionSignature {
    argTypes = List.copyOf(argTypes);
  }

  public int minArgs() {
    return variadic < 0 ? argTypes.size() - 1 : argTypes.size() - variadic;
  }

  /** Maximum number of arguments, or -1 for any. */
  public int maxArgs() {
    return variadic < 0 ? -1 : argTypes.size();
  }

  /** The expected type of argument {@code index}. */
  public ValueType argType(int index) {
    return index < argTypes.size() ? argTypes.get(index) : argTypes.get(argTypes.size() - 1);
  }
}
