#include "kernel.h"

namespace gk {

static constexpr double START_TEMPERATURE = 2.0;
static constexpr double COOLING = 0.999;

namespace {
// xoshiro128**, as prng.ts.
struct Xoshiro128 {
  uint32_t s[4];
  static uint32_t rotl(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }
  uint32_t next() {
    const uint32_t result = rotl(s[1] * 5u, 7) * 9u;
    const uint32_t t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
  }
  double uniform() { return (double)next() / 4294967296.0; }
};

int pairsOf(int n, int (*pairs)[2]) {
  int k = 0;
  for (int j = 1; j < n; j++)
    for (int i = 0; i < j; i++) {
      pairs[k][0] = i;
      pairs[k][1] = j;
      k++;
    }
  return k;
}
}  // namespace

static constexpr double INV7 = 1.0 / 7, INV6 = 1.0 / 6, INV5 = 1.0 / 5, INV4 = 1.0 / 4, INV3 = 1.0 / 3, INV2 = 1.0 / 2;

double expNeg(double x) {
  if (!(x >= 0)) return 1;
  if (x > 40) return 0;
  const double z = x / 256;
  // Same constants and order as prng.ts: (z * INVk) * e, left to right.
  double e = 1 - z * INV7;
  e = 1 - z * INV6 * e;
  e = 1 - z * INV5 * e;
  e = 1 - z * INV4 * e;
  e = 1 - z * INV3 * e;
  e = 1 - z * INV2 * e;
  e = 1 - z * e;
  for (int i = 0; i < 8; i++) e = e * e;
  return e;
}

AnnealResult anneal(const Program& p, int n, int steps, const uint32_t state[4]) {
  Xoshiro128 rng{{state[0], state[1], state[2], state[3]}};
  int pairs[MAX_N * (MAX_N - 1) / 2][2];
  const int np = pairsOf(n, pairs);
  Graph g;
  g.n = n;
  for (int k = 0; k < np; k++) {
    if (rng.next() >> 31) {
      g.adj[pairs[k][0]] |= (uint16_t)(1u << pairs[k][1]);
      g.adj[pairs[k][1]] |= (uint16_t)(1u << pairs[k][0]);
    }
  }
  ScoreContext ctx;
  ctx.reset(&g);
  AnnealResult out;
  double score = claimScore(p, ctx);
  out.bestScore = score;
  out.best = g;
  if (score == 0) {
    out.found = true;
    out.stepsRun = 0;
    return out;
  }
  double t = START_TEMPERATURE;
  for (int step = 1; step <= steps; step++) {
    const int k = (int)(rng.next() % (uint32_t)np);
    const int a = pairs[k][0], b = pairs[k][1];
    g.adj[a] ^= (uint16_t)(1u << b);
    g.adj[b] ^= (uint16_t)(1u << a);
    ctx.invalidate();
    const double s = claimScore(p, ctx);
    const double delta = s - score;
    if (delta <= 0 || rng.uniform() < expNeg(delta / t)) {
      score = s;
      if (s < out.bestScore) {
        out.bestScore = s;
        out.best = g;
        if (s == 0) {
          out.found = true;
          out.stepsRun = step;
          return out;
        }
      }
    } else {
      g.adj[a] ^= (uint16_t)(1u << b);
      g.adj[b] ^= (uint16_t)(1u << a);
    }
    t *= COOLING;
  }
  out.stepsRun = steps;
  return out;
}

ExhaustiveResult exhaustive(const Program& p, int n, bool sortedDegreesOnly) {
  int pairs[MAX_N * (MAX_N - 1) / 2][2];
  pairsOf(n, pairs);
  const uint64_t total = 1ull << (n * (n - 1) / 2);
  Graph g;
  g.n = n;
  int deg[MAX_N] = {0};
  FeatureCache f;
  ExhaustiveResult out;
  for (uint64_t i = 0; i < total; i++) {
    if (i > 0) {
      // Reflected Gray code: step i flips the pair at the index of i's lowest set bit.
      const int k = __builtin_ctzll(i);
      const int a = pairs[k][0], b = pairs[k][1];
      const int delta = (g.adj[a] >> b) & 1u ? -1 : 1;
      g.adj[a] ^= (uint16_t)(1u << b);
      g.adj[b] ^= (uint16_t)(1u << a);
      deg[a] += delta;
      deg[b] += delta;
    }
    if (sortedDegreesOnly) {
      bool sorted = true;
      for (int v = 1; v < n && sorted; v++) sorted = deg[v] <= deg[v - 1];
      if (!sorted) continue;
    }
    out.evaluated++;
    f.reset(&g);
    if (isCounterexample(p, f)) {
      out.found = true;
      out.visited = (double)(i + 1);
      out.witness = g;
      return out;
    }
  }
  out.visited = (double)total;
  return out;
}

}  // namespace gk
