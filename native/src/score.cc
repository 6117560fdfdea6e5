#include "score.h"

#include <limits>
#include <stdexcept>

namespace gk {

static constexpr double GAP_CAP = 16;
static constexpr double INF = std::numeric_limits<double>::infinity();

bool Program::isBool(int node) const {
  switch (kind(node)) {
    case K_BOOL: case K_NOT: case K_AND: case K_OR: case K_IMPLIES: case K_COMPARE: return true;
    case K_FEATURE: return b(node) == 1;
    default: return false;
  }
}

void Program::validate() const {
  const int len = (int)code.size();
  if (len < 8 || nodeCount < 1 || 8 + nodeCount * 4 > len) throw std::invalid_argument("program header is malformed");
  if (claimKind != 0 && claimKind != 1) throw std::invalid_argument("unknown claim kind");
  auto child = [&](int node, int x) {
    // Children precede their parent, so the node graph is a tree walked in bounded depth.
    if (x < 0 || x >= node) throw std::invalid_argument("program child index out of range");
  };
  auto poolRange = [&](int start, int count) {
    if (count < 0 || start < 8 + nodeCount * 4 || start + count > len) throw std::invalid_argument("program pool range out of bounds");
  };
  for (int i = 0; i < nodeCount; i++) {
    switch (kind(i)) {
      case K_BOOL: break;
      case K_NUM:
        if (a(i) < 0 || a(i) >= (int)constants.size()) throw std::invalid_argument("constant index out of range");
        break;
      case K_FEATURE:
        if (a(i) < 0 || a(i) >= FEATURE_COUNT) throw std::invalid_argument("feature id out of range");
        break;
      case K_NOT: case K_NEG: child(i, a(i)); break;
      case K_IMPLIES: child(i, a(i)); child(i, b(i)); break;
      case K_AND: case K_OR: case K_PRODUCT:
        if (b(i) < 1) throw std::invalid_argument("empty operand list");
        poolRange(a(i), b(i));
        for (int k = 0; k < b(i); k++) child(i, code[a(i) + k]);
        break;
      case K_COMPARE: case K_SUM:
        if (b(i) < 1 || (kind(i) == K_COMPARE && b(i) < 2)) throw std::invalid_argument("short operand list");
        poolRange(a(i), b(i));
        poolRange(c(i), b(i) - 1);
        for (int k = 0; k < b(i); k++) child(i, code[a(i) + k]);
        if (kind(i) == K_COMPARE)
          for (int k = 0; k + 1 < b(i); k++)
            if (code[c(i) + k] < C_EQ || code[c(i) + k] > C_GE) throw std::invalid_argument("unknown comparison");
        break;
      default: throw std::invalid_argument("unknown node kind");
    }
  }
  if (rootA < 0 || rootA >= nodeCount || rootB >= nodeCount || (claimKind == 0 && rootB < 0))
    throw std::invalid_argument("program roots out of range");
}

void ScoreContext::degreeExtras() {
  if (extrasKnown_) return;
  const Graph& g = *features.graph;
  int universal = 0, isolated = 0, odd = 0, excess = 0;
  for (int v = 0; v < g.n; v++) {
    int d = popc(g.adj[v]);
    if (d == g.n - 1) universal++;
    if (d == 0) isolated++;
    if (d & 1) odd++;
    if (d > 2) excess += d - 2;
  }
  universal_ = universal;
  isolated_ = isolated;
  odd_ = odd;
  excess_ = excess;
  extrasKnown_ = true;
}

double ScoreContext::featureDistance(int id, bool want) {
  FeatureCache& f = features;
  const int n = features.graph->n;
  double d;
  switch (id) {
    case F_IS_CONNECTED: d = want ? f.get(F_NUM_COMPONENTS) - 1 : f.get(F_MIN_DEGREE); break;
    case F_IS_COMPLETE: d = want ? (double)(n * (n - 1)) / 2 - f.get(F_M) : 1; break;
    case F_IS_FOREST: d = want ? f.get(F_M) - n + f.get(F_NUM_COMPONENTS) : 1; break;
    case F_IS_TREE:
      d = want ? f.get(F_NUM_COMPONENTS) - 1 + (f.get(F_M) - n + f.get(F_NUM_COMPONENTS)) : 1;
      break;
    case F_IS_BIPARTITE:
      if (conflicts_ < 0) conflicts_ = parityConflicts(*features.graph);
      d = want ? conflicts_ : 1;
      break;
    case F_IS_TRIANGLE_FREE: d = want ? f.get(F_NUM_TRIANGLES) : 1; break;
    case F_MAX_DEGREE_LE_2:
      degreeExtras();
      d = want ? excess_ : 1;
      break;
    case F_HAS_UNIVERSAL_VERTEX:
      degreeExtras();
      d = want ? n - 1 - f.get(F_MAX_DEGREE) : universal_;
      break;
    case F_HAS_ISOLATED_VERTEX:
      degreeExtras();
      d = want ? f.get(F_MIN_DEGREE) : isolated_;
      break;
    case F_IS_REGULAR: d = want ? f.get(F_MAX_DEGREE) - f.get(F_MIN_DEGREE) : 1; break;
    case F_IS_CLAW_FREE:
      if (claws_ < 0) claws_ = clawCentres(*features.graph);
      d = want ? claws_ : 1;
      break;
    case F_IS_EULERIAN:
      degreeExtras();
      d = want ? (double)odd_ / 2 + (f.get(F_NUM_COMPONENTS) - 1) : 1;
      break;
    default: throw std::invalid_argument("feature is not true/false");
  }
  return d > 1 ? d : 1;
}

double numberValue(const Program& p, int node, ScoreContext& c) {
  switch (p.kind(node)) {
    case K_NUM: return p.constants[p.a(node)];
    case K_FEATURE: return c.features.get(p.a(node));
    case K_NEG: return -numberValue(p, p.a(node), c);
    case K_SUM: {
      const int start = p.a(node), count = p.b(node), signs = p.c(node);
      double s = numberValue(p, p.code[start], c);
      for (int k = 1; k < count; k++) {
        if (p.code[signs + k - 1]) s = s + numberValue(p, p.code[start + k], c);
        else s = s - numberValue(p, p.code[start + k], c);
      }
      return s;
    }
    case K_PRODUCT: {
      const int start = p.a(node), count = p.b(node);
      double prod = numberValue(p, p.code[start], c);
      for (int k = 1; k < count; k++) prod *= numberValue(p, p.code[start + k], c);
      return prod;
    }
    default: throw std::invalid_argument("node is not a number");
  }
}

static int negate(int op) {
  switch (op) {
    case C_EQ: return C_NE;
    case C_NE: return C_EQ;
    case C_LT: return C_GE;
    case C_LE: return C_GT;
    case C_GT: return C_LE;
    default: return C_LT;  // C_GE
  }
}

static double comparisonDistance(int op, double a, double b) {
  double gap;
  switch (op) {
    case C_EQ:
      if (a == b) return 0;
      gap = a > b ? a - b : b - a;
      break;
    case C_NE:
      if (a != b) return 0;
      gap = 0;
      break;
    case C_LT:
      if (a < b) return 0;
      gap = a - b;
      break;
    case C_LE:
      if (a <= b) return 0;
      gap = a - b;
      break;
    case C_GT:
      if (a > b) return 0;
      gap = b - a;
      break;
    default:
      if (a >= b) return 0;
      gap = b - a;
      break;
  }
  return 1 + (gap < GAP_CAP ? gap : GAP_CAP);
}

static bool compareHolds(int op, double a, double b) {
  switch (op) {
    case C_EQ: return a == b;
    case C_NE: return a != b;
    case C_LT: return a < b;
    case C_LE: return a <= b;
    case C_GT: return a > b;
    default: return a >= b;
  }
}

double distance(const Program& p, int node, bool want, ScoreContext& c) {
  switch (p.kind(node)) {
    case K_BOOL: return (p.a(node) != 0) == want ? 0 : 1;
    case K_FEATURE: {
      int id = p.a(node);
      return (c.features.get(id) != 0) == want ? 0 : c.featureDistance(id, want);
    }
    case K_NOT: return distance(p, p.a(node), !want, c);
    case K_AND:
    case K_OR: {
      const bool all = (p.kind(node) == K_AND) == want;
      double acc = all ? 0 : INF;
      const int start = p.a(node), count = p.b(node);
      for (int k = 0; k < count; k++) {
        double d = distance(p, p.code[start + k], want, c);
        if (all) acc += d;
        else if (d < acc) acc = d;
      }
      return acc;
    }
    case K_IMPLIES: {
      if (want) {
        double l = distance(p, p.a(node), false, c);
        double r = distance(p, p.b(node), true, c);
        return l < r ? l : r;
      }
      return distance(p, p.a(node), true, c) + distance(p, p.b(node), false, c);
    }
    case K_COMPARE: {
      double acc = want ? 0 : INF;
      const int start = p.a(node), count = p.b(node), ops = p.c(node);
      for (int k = 0; k + 1 < count; k++) {
        const int op = p.code[ops + k];
        const int l = p.code[start + k], r = p.code[start + k + 1];
        double d;
        if (p.isBool(l)) {
          bool holds = (distance(p, l, true, c) == 0) == (distance(p, r, true, c) == 0);
          d = (op == C_EQ ? holds : !holds) == want ? 0 : 1;
        } else {
          d = comparisonDistance(want ? op : negate(op), numberValue(p, l, c), numberValue(p, r, c));
        }
        if (want) acc += d;
        else if (d < acc) acc = d;
      }
      return acc;
    }
    default: throw std::invalid_argument("node is not a predicate");
  }
}

// Plain truth with short-circuits, for the exhaustive check (cheaper than distances).
static double numberOf(const Program& p, int node, FeatureCache& f);

bool truth(const Program& p, int node, FeatureCache& f) {
  switch (p.kind(node)) {
    case K_BOOL: return p.a(node) != 0;
    case K_FEATURE: return f.get(p.a(node)) != 0;
    case K_NOT: return !truth(p, p.a(node), f);
    case K_AND: {
      for (int k = 0; k < p.b(node); k++)
        if (!truth(p, p.code[p.a(node) + k], f)) return false;
      return true;
    }
    case K_OR: {
      for (int k = 0; k < p.b(node); k++)
        if (truth(p, p.code[p.a(node) + k], f)) return true;
      return false;
    }
    case K_IMPLIES: return !truth(p, p.a(node), f) || truth(p, p.b(node), f);
    case K_COMPARE: {
      const int start = p.a(node), count = p.b(node), ops = p.c(node);
      for (int k = 0; k + 1 < count; k++) {
        const int op = p.code[ops + k];
        const int l = p.code[start + k], r = p.code[start + k + 1];
        bool ok;
        if (p.isBool(l)) {
          bool x = truth(p, l, f), y = truth(p, r, f);
          ok = op == C_EQ ? x == y : x != y;
        } else {
          ok = compareHolds(op, numberOf(p, l, f), numberOf(p, r, f));
        }
        if (!ok) return false;
      }
      return true;
    }
    default: throw std::invalid_argument("node is not a predicate");
  }
}

static double numberOf(const Program& p, int node, FeatureCache& f) {
  switch (p.kind(node)) {
    case K_NUM: return p.constants[p.a(node)];
    case K_FEATURE: return f.get(p.a(node));
    case K_NEG: return -numberOf(p, p.a(node), f);
    case K_SUM: {
      const int start = p.a(node), count = p.b(node), signs = p.c(node);
      double s = numberOf(p, p.code[start], f);
      for (int k = 1; k < count; k++) {
        if (p.code[signs + k - 1]) s = s + numberOf(p, p.code[start + k], f);
        else s = s - numberOf(p, p.code[start + k], f);
      }
      return s;
    }
    case K_PRODUCT: {
      double prod = numberOf(p, p.code[p.a(node)], f);
      for (int k = 1; k < p.b(node); k++) prod *= numberOf(p, p.code[p.a(node) + k], f);
      return prod;
    }
    default: throw std::invalid_argument("node is not a number");
  }
}

// ANTECEDENT_WEIGHT in score.ts: keeps the walk inside the antecedent (or class).
static constexpr double ANTECEDENT_WEIGHT = 4;

double claimScore(const Program& p, ScoreContext& c) {
  if (p.claimKind == 0) return ANTECEDENT_WEIGHT * distance(p, p.rootA, true, c) + distance(p, p.rootB, false, c);
  double d = distance(p, p.rootA, true, c);
  if (d != 0) return ANTECEDENT_WEIGHT * d + 1;
  return c.features.get(F_GREEDY_COLORS) > c.features.get(F_CHROMATIC_NUMBER) ? 0 : 1;
}

bool isCounterexample(const Program& p, FeatureCache& f) {
  if (p.claimKind == 0) return truth(p, p.rootA, f) && !truth(p, p.rootB, f);
  return truth(p, p.rootA, f) && f.get(F_GREEDY_COLORS) > f.get(F_CHROMATIC_NUMBER);
}

}  // namespace gk
