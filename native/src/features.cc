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

static int eccentricity(const Graph& g, int v) {
  uint32_t all = allMask(g.n), seen = 1u << v, frontier = seen;
  int depth = 0;
  while (seen != all) {
    uint32_t next = 0;
    for (uint32_t f = frontier; f; f &= f - 1) next |= g.adj[lowbit(f)];
    frontier = next & ~seen;
    if (!frontier) return NONE;
    seen |= frontier;
    depth++;
  }
  return depth;
}

int diameter(const Graph& g) {
  int d = 0;
  for (int v = 0; v < g.n; v++) {
    int e = eccentricity(g, v);
    if (e == NONE) return NONE;
    if (e > d) d = e;
  }
  return d;
}

int girth(const Graph& g) {
  int best = NONE;
  int8_t dist[MAX_N], parent[MAX_N], queue[MAX_N];
  for (int root = 0; root < g.n; root++) {
    for (int i = 0; i < g.n; i++) dist[i] = -1;
    dist[root] = 0;
    parent[root] = -1;
    int head = 0, tail = 0;
    queue[tail++] = (int8_t)root;
    while (head < tail) {
      int u = queue[head++];
      if (2 * dist[u] >= best) break;
      for (uint32_t f = g.adj[u]; f; f &= f - 1) {
        int w = lowbit(f);
        if (dist[w] == -1) {
          dist[w] = (int8_t)(dist[u] + 1);
          parent[w] = (int8_t)u;
          queue[tail++] = (int8_t)w;
        } else if (parent[u] != w) {
          int len = dist[u] + dist[w] + 1;
          if (len < best) best = len;
        }
      }
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
  int deg[MAX_N];
  for (int v = 0; v < g.n; v++) deg[v] = popc(g.adj[v]);
  uint32_t done = 0;
  int used = 0;
  uint32_t classes[MAX_N] = {0};
  for (int k = 0; k < g.n; k++) {
    int v = -1;
    for (int u = 0; u < g.n; u++)
      if (!((done >> u) & 1u) && (v < 0 || deg[u] > deg[v])) v = u;
    done |= 1u << v;
    int c = 0;
    while (c < used && (classes[c] & g.adj[v])) c++;
    if (c == used) used++;
    classes[c] |= 1u << v;
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

int chromaticNumber(const Graph& g) {
  int upper = greedyColourCount(g);
  int lower = cliqueNumber(g);
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
    case F_CHROMATIC_NUMBER: return set(id, chromaticNumber(g));
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
