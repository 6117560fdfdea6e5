// Annealing and exhaustive enumeration; mirrors src/eval/tools/counterexample/anneal.ts.
#pragma once
#include <cstdint>

#include "score.h"

namespace gk {

struct AnnealResult {
  bool found = false;
  double bestScore = 0;
  int stepsRun = 0;
  Graph best;
};

struct ExhaustiveResult {
  bool found = false;
  double visited = 0;
  double evaluated = 0;
  Graph witness;
};

AnnealResult anneal(const Program& p, int n, int steps, const uint32_t state[4]);
ExhaustiveResult exhaustive(const Program& p, int n, bool sortedDegreesOnly);
double expNeg(double x);

}  // namespace gk
