// Exact features; each function follows its TypeScript twin in src/eval/graph/.
#include <stdexcept>

#include "graph.h"

namespace gk {

static uint32_t componentOf(const Graph& g, int v) {
  uint32_t comp = 1u << v, frontier = comp;
  while (frontier) {
    uint32_t next = 0;
    for (uint32_t f = frontier; f; f &= f - 1) next |= g.adj[lowbit(f)];
    frontier = next & ~comp;
    comp |= next;
  }
  return comp;
}

int componentCount(const Graph& g) {
  uint32_t left = allMask(g.n);
  int count = 0;
  while (left) {
    left &= ~componentOf(g, lowbit(left));
    count++;
  }
  return count;
}

// Side of each vertex = parity of its BFS depth from the lowest vertex of its component;
// returns the number of edges with both ends on one side (0 iff bipartite).
int parityConflicts(const Graph& g) {
  uint32_t left = allMask(g.n), side = 0;
  while (left) {
    int root = lowbit(left);
    uint32_t seen = 1u << root, frontier = seen;
    int parity = 0;
    while (frontier) {
      if (parity) side |= frontier;
      uint32_t next = 0;
      for (uint32_t f = frontier; f; f &= f - 1) next |= g.adj[lowbit(f)];
      frontier = next & ~seen;
      seen |= next;
      parity ^= 1;
    }
    left &= ~seen;
  }
  int conflicts = 0;
  for (int v = 0; v < g.n; v++) {
    uint32_t same = ((side >> v) & 1u) ? side : ~side;
    conflicts += popc(g.adj[v] & same & ~((2u << v) - 1u) & allMask(g.n));
  }
  return conflicts;
}

int triangleCount(const Graph& g) {
  int t = 0;
  for (int a = 0; a < g.n; a++) {
    uint32_t higher = g.adj[a] & ~((2u << a) - 1u);
    for (uint32_t f = higher; f; f &= f - 1) {
      int b = lowbit(f);
      t += popc(g.adj[a] & g.adj[b] & ~((2u << b) - 1u));
    }
  }
  return t;
}

// Diameter by growing every vertex's ball at once: ball_k(v) = {v} plus the union of
// ball_(k-1)(u) over the neighbours u of v; the diameter is the first k at which every ball
// is the whole vertex set (NONE if the balls stop growing first: disconnected).
int diameter(const Graph& g) {
  const uint32_t all = allMask(g.n);
  uint32_t ball[MAX_N], next[MAX_N];
  bool full = true;
  for (int v = 0; v < g.n; v++) {
    ball[v] = 1u << v;
    full = full && ball[v] == all;
  }
  for (int k = 0;; k++) {
    if (full) return k;
    bool grew = false;
    full = true;
    for (int v = 0; v < g.n; v++) {
      uint32_t b = ball[v];
      for (uint32_t f = g.adj[v]; f; f &= f - 1) b |= ball[lowbit(f)];
      next[v] = b;
      grew = grew || b != ball[v];
      full = full && b == all;
    }
    if (!grew) return NONE;
    for (int v = 0; v < g.n; v++) ball[v] = next[v];
  }
}

// Girth by bitset BFS layers from every root: an edge inside layer L closes a closed walk of
// length 2L + 1, a vertex of layer L + 1 with two neighbours in layer L one of length 2L + 2;
// each contains a cycle at most that long, and a root on a shortest cycle meets its length
// exactly, so the minimum over roots is the girth (same value as girth() in structure.ts).
int girth(const Graph& g) {
  int best = NONE;
  for (int root = 0; root < g.n; root++) {
    uint32_t seen = 1u << root, layer = seen;
    for (int L = 0; layer && 2 * L + 1 < best; L++) {
      for (uint32_t f = layer; f; f &= f - 1)
        if (g.adj[lowbit(f)] & layer) {
          best = 2 * L + 1;
          break;
        }
      if (2 * L + 2 >= best) break;
      uint32_t next = 0;
      for (uint32_t f = layer; f; f &= f - 1) next |= g.adj[lowbit(f)];
      next &= ~seen;
      for (uint32_t f = next; f; f &= f - 1)
        if (popc(g.adj[lowbit(f)] & layer) >= 2) {
          best = 2 * L + 2;
          break;
        }
      seen |= next;
      layer = next;
    }
  }
  return best;
}

int clawCentres(const Graph& g) {
  int centres = 0;
  for (int v = 0; v < g.n; v++) {
    uint32_t nb = g.adj[v];
    if (popc(nb) < 3) continue;
    bool found = false;
    for (uint32_t fa = nb; fa && !found; fa &= fa - 1) {
      int a = lowbit(fa);
      uint32_t rest = nb & ~(uint32_t)g.adj[a] & ~((2u << a) - 1u);
      for (uint32_t fb = rest; fb; fb &= fb - 1) {
        int b = lowbit(fb);
        if (rest & ~(uint32_t)g.adj[b] & ~((2u << b) - 1u)) {
          found = true;
          break;
        }
      }
    }
    if (found) centres++;
  }
  return centres;
}

static int maxCliqueIn(const uint16_t* adj, uint32_t candidates, int size, int best) {
  if (!candidates) return size > best ? size : best;
  if (size + popc(candidates) <= best) return best;
  uint32_t p = candidates;
  while (p) {
    if (size + popc(p) <= best) return best;
    int v = lowbit(p);
    p &= p - 1;
    best = maxCliqueIn(adj, p & adj[v], size + 1, best);
  }
  return best;
}

int cliqueNumber(const Graph& g) { return maxCliqueIn(g.adj, allMask(g.n), 0, 0); }

int independenceNumber(const Graph& g) {
  uint16_t c[MAX_N];
  uint32_t all = allMask(g.n);
  for (int v = 0; v < g.n; v++) c[v] = (uint16_t)(~(uint32_t)g.adj[v] & all & ~(1u << v));
  return maxCliqueIn(c, all, 0, 0);
}

int greedyColourCount(const Graph& g) {
  // Vertices bucketed by degree; taking buckets from the highest degree down and each
  // bucket's bits from the lowest index up is the order "descending degree, ties to the
  // lower index".
  uint32_t bucket[MAX_N] = {0};
  int maxDeg = 0;
  for (int v = 0; v < g.n; v++) {
    int d = popc(g.adj[v]);
    bucket[d] |= 1u << v;
    if (d > maxDeg) maxDeg = d;
  }
  int used = 0;
  uint32_t classes[MAX_N] = {0};
  for (int d = maxDeg; d >= 0; d--) {
    for (uint32_t f = bucket[d]; f; f &= f - 1) {
      int v = lowbit(f);
      int c = 0;
      while (c < used && (classes[c] & g.adj[v])) c++;
      if (c == used) used++;
      classes[c] |= 1u << v;
    }
  }
  return used;
}

namespace {
struct ColourSearch {
  const Graph* g;
  int k;
  uint32_t classes[MAX_N];
};

bool extend(ColourSearch& s, uint32_t coloured, int used) {
  const Graph& g = *s.g;
  if (coloured == allMask(g.n)) return true;
  int best = -1, bestSat = -1, bestDeg = -1;
  for (int v = 0; v < g.n; v++) {
    if ((coloured >> v) & 1u) continue;
    int sat = 0;
    for (int c = 0; c < used; c++)
      if (s.classes[c] & g.adj[v]) sat++;
    int deg = popc(g.adj[v] & ~coloured);
    if (sat > bestSat || (sat == bestSat && deg > bestDeg)) {
      best = v;
      bestSat = sat;
      bestDeg = deg;
    }
  }
  int v = best;
  int limit = used < s.k ? used + 1 : s.k;
  for (int c = 0; c < limit; c++) {
    if (s.classes[c] & g.adj[v]) continue;
    s.classes[c] |= 1u << v;
    if (extend(s, coloured | (1u << v), c == used ? used + 1 : used)) return true;
    s.classes[c] &= ~(1u << v);
  }
  return false;
}
}  // namespace

int chromaticNumber(const Graph& g) { return chromaticNumberBetween(g, cliqueNumber(g), greedyColourCount(g)); }

int chromaticNumberBetween(const Graph& g, int lower, int upper) {
  for (int k = lower > 1 ? lower : 1; k < upper; k++) {
    ColourSearch s{&g, k, {0}};
    if (extend(s, 0, 0)) return k;
  }
  return upper;
}

void FeatureCache::degrees() {
  const Graph& g = *graph;
  int n = g.n, sum = 0, max = 0, min = n;
  bool even = true;
  for (int v = 0; v < n; v++) {
    int d = popc(g.adj[v]);
    sum += d;
    if (d > max) max = d;
    if (d < min) min = d;
    if (d & 1) even = false;
  }
  int m = sum >> 1;
  int pairs = n * (n - 1) / 2;
  even_ = even;
  set(F_N, n);
  set(F_M, m);
  set(F_DENSITY, pairs == 0 ? 0.0 : (double)m / (double)pairs);
  set(F_MAX_DEGREE, max);
  set(F_MIN_DEGREE, min);
  set(F_IS_COMPLETE, m == pairs ? 1 : 0);
  set(F_MAX_DEGREE_LE_2, max <= 2 ? 1 : 0);
  set(F_HAS_UNIVERSAL_VERTEX, max == n - 1 ? 1 : 0);
  set(F_HAS_ISOLATED_VERTEX, min == 0 ? 1 : 0);
  set(F_IS_REGULAR, max == min ? 1 : 0);
}

void FeatureCache::compute(int id) {
  const Graph& g = *graph;
  switch (id) {
    case F_N: case F_M: case F_DENSITY: case F_MAX_DEGREE: case F_MIN_DEGREE: case F_IS_COMPLETE:
    case F_MAX_DEGREE_LE_2: case F_HAS_UNIVERSAL_VERTEX: case F_HAS_ISOLATED_VERTEX: case F_IS_REGULAR:
      return degrees();
    case F_NUM_COMPONENTS: return set(id, componentCount(g));
    case F_IS_CONNECTED: return set(id, get(F_NUM_COMPONENTS) == 1 ? 1 : 0);
    case F_IS_FOREST: return set(id, get(F_M) == g.n - get(F_NUM_COMPONENTS) ? 1 : 0);
    case F_IS_TREE: return set(id, get(F_NUM_COMPONENTS) == 1 && get(F_M) == g.n - 1 ? 1 : 0);
    case F_IS_BIPARTITE: return set(id, parityConflicts(g) == 0 ? 1 : 0);
    case F_NUM_TRIANGLES: return set(id, triangleCount(g));
    case F_IS_TRIANGLE_FREE: return set(id, get(F_NUM_TRIANGLES) == 0 ? 1 : 0);
    case F_CLIQUE_NUMBER: return set(id, cliqueNumber(g));
    case F_INDEPENDENCE_NUMBER: return set(id, independenceNumber(g));
    case F_GIRTH: return set(id, girth(g));
    case F_DIAMETER: return set(id, get(F_NUM_COMPONENTS) == 1 ? diameter(g) : NONE);
    case F_CHROMATIC_NUMBER: {
      int lower = (int)get(F_CLIQUE_NUMBER), upper = (int)get(F_GREEDY_COLORS);
      // Two colours suffice exactly for bipartite graphs: no search needed for k = 2.
      if (lower == 2 && upper > 2) {
        if (get(F_IS_BIPARTITE) != 0) return set(id, 2);
        lower = 3;
      }
      return set(id, chromaticNumberBetween(g, lower, upper));
    }
    case F_GREEDY_COLORS: return set(id, greedyColourCount(g));
    case F_IS_CLAW_FREE: return set(id, clawCentres(g) == 0 ? 1 : 0);
    case F_IS_EULERIAN: {
      get(F_M);
      return set(id, even_ && get(F_NUM_COMPONENTS) == 1 ? 1 : 0);
    }
    default: throw std::range_error("unknown feature id");
  }
}

}  // namespace gk
