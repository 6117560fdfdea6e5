// The claim program (lowered by src/eval/tools/counterexample/program.ts) and the search
// score over it. Mirrors score.ts operation by operation: identical doubles, bit for bit.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "graph.h"

namespace gk {

enum NodeKind { K_BOOL, K_NUM, K_FEATURE, K_NOT, K_AND, K_OR, K_IMPLIES, K_COMPARE, K_NEG, K_SUM, K_PRODUCT };
enum CompareCode { C_EQ, C_NE, C_LT, C_LE, C_GT, C_GE };

struct Program {
  std::vector<int32_t> code;
  std::vector<double> constants;
  int claimKind = 0;  // 0 implication A => B, 1 greedy-colouring claim on class A
  int rootA = 0;
  int rootB = -1;
  int nodeCount = 0;

  // Checks every index so that a malformed program throws instead of reading out of bounds.
  void validate() const;
  int kind(int node) const { return code[8 + node * 4]; }
  int a(int node) const { return code[8 + node * 4 + 1]; }
  int b(int node) const { return code[8 + node * 4 + 2]; }
  int c(int node) const { return code[8 + node * 4 + 3]; }
  bool isBool(int node) const;
};

class ScoreContext {
 public:
  FeatureCache features;

  void reset(const Graph* g) {
    features.reset(g);
    invalidate();
  }
  void invalidate() {
    features.invalidate();
    extrasKnown_ = false;
    conflicts_ = -1;
    claws_ = -1;
  }
  double featureDistance(int id, bool want);

 private:
  bool extrasKnown_ = false;
  int conflicts_ = -1, claws_ = -1;
  int universal_ = 0, isolated_ = 0, odd_ = 0, excess_ = 0;
  void degreeExtras();
};

double numberValue(const Program& p, int node, ScoreContext& c);
double distance(const Program& p, int node, bool want, ScoreContext& c);
bool truth(const Program& p, int node, FeatureCache& f);
double claimScore(const Program& p, ScoreContext& c);
bool isCounterexample(const Program& p, FeatureCache& f);

}  // namespace gk
