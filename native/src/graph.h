// Bitset graphs on at most 12 vertices and their exact features. Mirrors
// src/eval/graph/*.ts: every value must equal the TypeScript reference's exactly.
#pragma once
#include <cstdint>

namespace gk {

constexpr int MAX_N = 12;
constexpr int FEATURE_COUNT = 25;
constexpr int NONE = 999;

// Feature ids: the order of FEATURES in src/eval/graph/features.ts.
enum Feature {
  F_N, F_M, F_DENSITY, F_MAX_DEGREE, F_MIN_DEGREE, F_IS_CONNECTED, F_IS_COMPLETE, F_IS_FOREST,
  F_IS_TREE, F_IS_BIPARTITE, F_IS_TRIANGLE_FREE, F_MAX_DEGREE_LE_2, F_HAS_UNIVERSAL_VERTEX,
  F_HAS_ISOLATED_VERTEX, F_IS_REGULAR, F_NUM_COMPONENTS, F_CLIQUE_NUMBER, F_GIRTH,
  F_CHROMATIC_NUMBER, F_GREEDY_COLORS, F_INDEPENDENCE_NUMBER, F_NUM_TRIANGLES, F_DIAMETER,
  F_IS_CLAW_FREE, F_IS_EULERIAN
};

struct Graph {
  int n = 0;
  uint16_t adj[MAX_N] = {0};
};

inline int popc(uint32_t x) { return __builtin_popcount(x); }
inline int lowbit(uint32_t x) { return __builtin_ctz(x); }
inline uint32_t allMask(int n) { return (1u << n) - 1u; }

int componentCount(const Graph& g);
int parityConflicts(const Graph& g);
int triangleCount(const Graph& g);
int girth(const Graph& g);
int diameter(const Graph& g);
int clawCentres(const Graph& g);
int cliqueNumber(const Graph& g);
int independenceNumber(const Graph& g);
int greedyColourCount(const Graph& g);
int chromaticNumber(const Graph& g);
// The chromatic number given a lower bound (clique number) and an upper bound (greedy count).
int chromaticNumberBetween(const Graph& g, int lower, int upper);

class FeatureCache {
 public:
  double values[FEATURE_COUNT] = {0};
  const Graph* graph = nullptr;

  void reset(const Graph* g) {
    graph = g;
    known_ = 0;
  }
  void invalidate() { known_ = 0; }
  double get(int id) {
    if ((known_ >> id) & 1u) return values[id];
    compute(id);
    return values[id];
  }
  bool evenDegrees() {
    get(F_M);
    return even_;
  }

 private:
  uint32_t known_ = 0;
  bool even_ = false;
  void set(int id, double v) {
    values[id] = v;
    known_ |= 1u << id;
  }
  void degrees();
  void compute(int id);
};

}  // namespace gk
