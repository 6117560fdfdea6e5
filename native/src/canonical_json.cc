// RFC 8785 canonical JSON from raw bytes. See canonical_json.h; the output must equal
// canonicalJson(JSON.parse(new TextDecoder().decode(bytes))) from src/core/canonical-json.ts.
#include "canonical_json.h"

#include <algorithm>
#include <charconv>
#include <string_view>
#include <system_error>

namespace cj {

namespace {

// Bytes that end a run of characters copied verbatim inside a string literal: the quote,
// the backslash, controls (invalid raw) and non-ASCII (validated as UTF-8).
struct SpecialTable {
  bool t[256];
  constexpr SpecialTable() : t() {
    for (int c = 0; c < 256; c++) t[c] = c < 0x20 || c == '"' || c == '\\' || c >= 0x80;
  }
};
constexpr SpecialTable kSpecial;

const char kHex[] = "0123456789abcdef";

// Eight bytes at a time: high bits mark the bytes of `w` that kSpecial marks. Borrows can
// also mark bytes above the first special one, never below it, so on a little-endian load the
// lowest mark is exact.
inline uint64_t specialMask(uint64_t w) {
  constexpr uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
  const uint64_t quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\');
  const uint64_t zeroQuote = (quote - ones) & ~quote, zeroBackslash = (backslash - ones) & ~backslash;
  const uint64_t control = w - ones * 0x20;  // borrows into the high bit of bytes below 0x20
  return (zeroQuote | zeroBackslash | control | w) & highs;
}

inline uint64_t load64(const void* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

inline bool isWs(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
inline bool isDigit(uint8_t c) { return c >= '0' && c <= '9'; }
inline bool isCont(uint8_t c) { return (c & 0xC0) == 0x80; }

int hexValue(uint8_t c) {
  if (c >= '0' && c <= '9') return c - '0';
  c |= 0x20;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

int hex4(const uint8_t* s) {
  int v = 0;
  for (int i = 0; i < 4; i++) {
    const int h = hexValue(s[i]);
    if (h < 0) return -1;
    v = v << 4 | h;
  }
  return v;
}

// Length of the well-formed UTF-8 sequence at p (RFC 3629: no overlongs, no surrogates,
// nothing above U+10FFFF), or 0. TextDecoder would replace anything else with U+FFFD.
size_t utf8Length(const uint8_t* p, const uint8_t* end) {
  const uint8_t c = p[0];
  const size_t avail = static_cast<size_t>(end - p);
  if (c < 0xC2) return 0;
  if (c < 0xE0) return avail >= 2 && isCont(p[1]) ? 2 : 0;
  if (c < 0xF0) {
    if (avail < 3 || !isCont(p[2])) return 0;
    const uint8_t lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return p[1] >= lo && p[1] <= hi ? 3 : 0;
  }
  if (c < 0xF5) {
    if (avail < 4 || !isCont(p[2]) || !isCont(p[3])) return 0;
    const uint8_t lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return p[1] >= lo && p[1] <= hi ? 4 : 0;
  }
  return 0;
}

// Encodes a code point (surrogates included, giving WTF-8).
void putUtf8(Buf& b, uint32_t cp) {
  char s[4];
  if (cp < 0x80) {
    b.put(static_cast<char>(cp));
  } else if (cp < 0x800) {
    s[0] = static_cast<char>(0xC0 | cp >> 6);
    s[1] = static_cast<char>(0x80 | (cp & 0x3F));
    b.put(s, 2);
  } else if (cp < 0x10000) {
    s[0] = static_cast<char>(0xE0 | cp >> 12);
    s[1] = static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    s[2] = static_cast<char>(0x80 | (cp & 0x3F));
    b.put(s, 3);
  } else {
    s[0] = static_cast<char>(0xF0 | cp >> 18);
    s[1] = static_cast<char>(0x80 | (cp >> 12 & 0x3F));
    s[2] = static_cast<char>(0x80 | (cp >> 6 & 0x3F));
    s[3] = static_cast<char>(0x80 | (cp & 0x3F));
    b.put(s, 4);
  }
}

void putUnitEscape(Buf& out, uint32_t u) {
  const char s[6] = {'\\', 'u', kHex[u >> 12 & 15], kHex[u >> 8 & 15], kHex[u >> 4 & 15], kHex[u & 15]};
  out.put(s, 6);
}

// One BMP code unit that is not a surrogate, written as JSON.stringify writes it.
void putUnit(Buf& out, uint32_t u) {
  if (u >= 0x20) {
    if (u == '"') out.put("\\\"", 2);
    else if (u == '\\') out.put("\\\\", 2);
    else putUtf8(out, u);
    return;
  }
  switch (u) {
    case '\b': out.put("\\b", 2); return;
    case '\t': out.put("\\t", 2); return;
    case '\n': out.put("\\n", 2); return;
    case '\f': out.put("\\f", 2); return;
    case '\r': out.put("\\r", 2); return;
    default: putUnitEscape(out, u);
  }
}

// Reads UTF-16 code units out of WTF-8, for the rare comparisons bytes cannot decide.
struct UnitReader {
  const uint8_t* p;
  const uint8_t* end;
  uint32_t pending = 0;

  bool next(uint32_t* unit) {
    if (pending) {
      *unit = pending;
      pending = 0;
      return true;
    }
    if (p == end) return false;
    const uint8_t c = *p;
    uint32_t cp;
    if (c < 0x80) {
      cp = c;
      p += 1;
    } else if (c < 0xE0) {
      cp = (c & 0x1Fu) << 6 | (p[1] & 0x3Fu);
      p += 2;
    } else if (c < 0xF0) {
      cp = (c & 0x0Fu) << 12 | (p[1] & 0x3Fu) << 6 | (p[2] & 0x3Fu);
      p += 3;
    } else {
      cp = (c & 0x07u) << 18 | (p[1] & 0x3Fu) << 12 | (p[2] & 0x3Fu) << 6 | (p[3] & 0x3Fu);
      p += 4;
    }
    if (cp < 0x10000) {
      *unit = cp;
    } else {
      *unit = 0xD800 + ((cp - 0x10000) >> 10);
      pending = 0xDC00 + ((cp - 0x10000) & 0x3FF);
    }
    return true;
  }
};

// Prints a finite double as ECMAScript's Number::toString does. std::to_chars gives the
// shortest round-trip digits (ties to even, as the spec asks); only the layout differs.
void putNumber(Buf& out, double d) {
  if (d == 0) {
    out.put('0');  // -0 too
    return;
  }
  char buf[40];
  const auto r = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
  const char* s = buf;
  const char* const e = r.ptr;
  if (*s == '-') {
    out.put('-');
    ++s;
  }
  char digits[20];
  int k = 0;
  while (s < e && *s != 'e')
    if (*s != '.') digits[k++] = *s++;
    else ++s;
  ++s;  // 'e'
  const bool negExp = *s == '-';
  ++s;  // to_chars always writes the exponent's sign
  int exp = 0;
  while (s < e) exp = exp * 10 + (*s++ - '0');
  const int n = (negExp ? -exp : exp) + 1;  // the decimal point sits after n digits
  if (k <= n && n <= 21) {
    out.put(digits, k);
    for (int i = k; i < n; i++) out.put('0');
  } else if (0 < n && n <= 21) {
    out.put(digits, n);
    out.put('.');
    out.put(digits + n, k - n);
  } else if (-6 < n && n <= 0) {
    out.put("0.", 2);
    for (int i = n; i < 0; i++) out.put('0');
    out.put(digits, k);
  } else {
    out.put(digits[0]);
    if (k > 1) {
      out.put('.');
      out.put(digits + 1, k - 1);
    }
    out.put('e');
    const int x = n - 1;
    out.put(x < 0 ? '-' : '+');
    char eb[8];
    const auto er = std::to_chars(eb, eb + sizeof eb, x < 0 ? -x : x);
    out.put(eb, static_cast<size_t>(er.ptr - eb));
  }
}

size_t firstMismatch(const uint8_t* a, const uint8_t* b, size_t n) {
  size_t i = 0;
#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  for (; i + 8 <= n; i += 8) {
    const uint64_t x = load64(a + i) ^ load64(b + i);
    if (x) return i + static_cast<size_t>(__builtin_ctzll(x)) / 8;
  }
#endif
  while (i < n && a[i] == b[i]) i++;
  return i;
}

}  // namespace

int compareUtf16(const char* a, size_t alen, const char* b, size_t blen) {
  const auto* ua = reinterpret_cast<const uint8_t*>(a);
  const auto* ub = reinterpret_cast<const uint8_t*>(b);
  const size_t n = std::min(alen, blen);
  const size_t i = firstMismatch(ua, ub, n);
  if (i == n) return alen < blen ? -1 : alen > blen ? 1 : 0;
  // Byte order is code-point order. UTF-16 order differs only between a supplementary
  // character (a surrogate pair, lead F0..F4) and a BMP character at or above U+D000
  // (lead ED..EF: late BMP or a lone surrogate); compare those by code units.
  size_t s = i;
  while (s > 0 && isCont(ua[s])) s--;
  const bool astralA = ua[s] >= 0xF0, astralB = ub[s] >= 0xF0;
  if (astralA != astralB && (astralA ? ub[s] : ua[s]) >= 0xED) {
    UnitReader ra{ua + s, ua + alen}, rb{ub + s, ub + blen};
    for (;;) {
      uint32_t x, y;
      const bool hx = ra.next(&x), hy = rb.next(&y);
      if (!hx || !hy) return hx == hy ? 0 : hx ? 1 : -1;
      if (x != y) return x < y ? -1 : 1;
    }
  }
  return ua[i] < ub[i] ? -1 : 1;
}

void writeJsonString(Buf& out, const char* str, size_t len) {
  const auto* p = reinterpret_cast<const uint8_t*>(str);
  const uint8_t* const end = p + len;
  out.put('"');
  const uint8_t* run = p;
  while (p < end) {
    const uint8_t c = *p;
    if (c >= 0x20 && c != '"' && c != '\\' && !(c == 0xED && p + 1 < end && p[1] >= 0xA0)) {
      ++p;
      continue;
    }
    out.put(run, static_cast<size_t>(p - run));
    if (c == 0xED) {  // a lone surrogate in WTF-8
      putUnitEscape(out, (c & 0x0Fu) << 12 | (p[1] & 0x3Fu) << 6 | (p[2] & 0x3Fu));
      p += 3;
    } else {
      putUnit(out, c);
      ++p;
    }
    run = p;
  }
  out.put(run, static_cast<size_t>(p - run));
  out.put('"');
}

std::string wtf8FromUtf16(const char16_t* s, size_t len) {
  Buf b;
  for (size_t i = 0; i < len; i++) {
    const uint32_t u = s[i];
    if (u >= 0xD800 && u <= 0xDBFF && i + 1 < len && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF) {
      putUtf8(b, 0x10000 + ((u - 0xD800) << 10) + (s[i + 1] - 0xDC00u));
      i++;
    } else {
      putUtf8(b, u);
    }
  }
  return std::string(b.data() ? b.data() : "", b.size());
}

const PlanProp* PlanNode::find(const char* key, size_t len, size_t* index) const {
  const std::string_view k(key, len);
  const auto it = std::lower_bound(props.begin(), props.end(), k,
                                   [](const PlanProp& p, std::string_view v) { return std::string_view(p.key) < v; });
  if (it == props.end() || std::string_view(it->key) != k) return nullptr;
  *index = static_cast<size_t>(it - props.begin());
  return &*it;
}

void Canonicalizer::addMember(const char* key, size_t keyLen, bool ascii, size_t start, size_t end) {
  // Filled in place: building the struct and copying it in stalls on store forwarding.
  Member& m = members_.emplace_back();
  const auto* k = reinterpret_cast<const uint8_t*>(key);
  uint64_t prefix = 0;
  if (keyLen >= 8) {
    for (size_t i = 0; i < 8; i++) prefix = prefix << 8 | k[i];
  } else {
    for (size_t i = 0; i < 8; i++) prefix = prefix << 8 | (i < keyLen ? k[i] : 0);
  }
  bool plain = true;
  if (!ascii)
    for (size_t i = 0; i < keyLen && plain; i++) plain = k[i] < 0xED;
  m.key = key;
  m.keyLen = keyLen;
  m.prefix = prefix;
  m.plain = plain;
  m.start = start;
  m.end = end;
}

int Canonicalizer::compareKeys(const Member& a, const Member& b) {
  const bool plain = a.plain && b.plain;
  if (a.prefix != b.prefix && plain) return a.prefix < b.prefix ? -1 : 1;
  if (!plain) return compareUtf16(a.key, a.keyLen, b.key, b.keyLen);
  // Equal prefixes (the zero padding makes "a" and "a\0" equal too): compare the whole keys.
  const auto* ka = reinterpret_cast<const uint8_t*>(a.key);
  const auto* kb = reinterpret_cast<const uint8_t*>(b.key);
  const size_t n = std::min(a.keyLen, b.keyLen);
  const size_t i = firstMismatch(ka, kb, n);
  if (i < n) return ka[i] < kb[i] ? -1 : 1;
  return a.keyLen < b.keyLen ? -1 : a.keyLen > b.keyLen ? 1 : 0;
}

bool Canonicalizer::run(const uint8_t* data, size_t len, const PlanNode* plan, Buf& out) {
  p_ = data;
  end_ = data + len;
  out_ = &out;
  depth_ = 0;
  out.clear();
  out.reserve(len + 64);
  // Decoded keys are never longer than their source text, so this never reallocates and
  // pointers into it stay valid for the whole run.
  keys_.clear();
  keys_.reserve(len + 1);
  members_.clear();
  present_.clear();
  if (len >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF) p_ += 3;
  if (!value(plan)) return false;
  while (p_ < end_ && isWs(*p_)) ++p_;
  return p_ == end_;
}

void Canonicalizer::trim(size_t keepBytes) {
  if (keys_.capacity() > keepBytes) keys_.release();
  if (scratch_.capacity() > keepBytes) scratch_.release();
  if (members_.capacity() * sizeof(Member) > keepBytes) std::vector<Member>().swap(members_);
  if (sortKeys_.capacity() * sizeof(SortKey) > keepBytes) std::vector<SortKey>().swap(sortKeys_);
  if (present_.capacity() > keepBytes) std::vector<uint8_t>().swap(present_);
}

bool Canonicalizer::value(const PlanNode* node) {
  while (p_ < end_ && isWs(*p_)) ++p_;
  if (p_ == end_) return false;
  switch (*p_) {
    case '{': return object(node);
    case '[': return array(node);
    case '"': ++p_; return string(false, nullptr, nullptr, nullptr);
    case 't': return literal("true", 4);
    case 'f': return literal("false", 5);
    case 'n': return literal("null", 4);
    default: return number();
  }
}

bool Canonicalizer::literal(const char* word, size_t len) {
  if (static_cast<size_t>(end_ - p_) < len || std::memcmp(p_, word, len) != 0) return false;
  p_ += len;
  out_->put(word, len);
  return true;
}

bool Canonicalizer::array(const PlanNode* node) {
  if (++depth_ > MAX_DEPTH) return false;
  ++p_;
  Buf& out = *out_;
  out.put('[');
  const PlanNode* child = node ? node->items : nullptr;
  while (p_ < end_ && isWs(*p_)) ++p_;
  if (p_ < end_ && *p_ == ']') {
    ++p_;
  } else {
    for (;;) {
      if (!value(child)) return false;
      while (p_ < end_ && isWs(*p_)) ++p_;
      if (p_ == end_) return false;
      if (*p_ == ',') {
        ++p_;
        out.put(',');
      } else if (*p_ == ']') {
        ++p_;
        break;
      } else {
        return false;
      }
    }
  }
  out.put(']');
  --depth_;
  return true;
}

bool Canonicalizer::object(const PlanNode* node) {
  if (++depth_ > MAX_DEPTH) return false;
  ++p_;
  Buf& out = *out_;
  out.put('{');
  const size_t regionStart = out.size();
  const size_t base = members_.size();
  const size_t presentBase = present_.size();
  const bool withDefaults = node && !node->defaults.empty();
  if (withDefaults) present_.resize(presentBase + node->props.size(), 0);
  // Members are written in input order; only when that is not already canonical order
  // (or a default is inserted) are they sorted afterwards.
  bool inOrder = true;
  while (p_ < end_ && isWs(*p_)) ++p_;
  if (p_ < end_ && *p_ == '}') {
    ++p_;
  } else {
    for (;;) {
      if (p_ == end_ || *p_ != '"') return false;
      ++p_;
      const size_t start = out.size();
      const char* key;
      size_t keyLen;
      bool keyAscii;
      if (!string(true, &key, &keyLen, &keyAscii)) return false;
      while (p_ < end_ && isWs(*p_)) ++p_;
      if (p_ == end_ || *p_ != ':') return false;
      ++p_;
      out.put(':');
      const PlanNode* child = nullptr;
      if (node) {
        size_t index;
        const PlanProp* prop = node->props.empty() ? nullptr : node->find(key, keyLen, &index);
        if (prop) {
          child = prop->node;
          if (withDefaults) present_[presentBase + index] = 1;
        } else {
          child = node->additional;
        }
      }
      if (!value(child)) return false;
      addMember(key, keyLen, keyAscii, start, out.size());
      if (inOrder && members_.size() > base + 1 && compareKeys(members_[members_.size() - 2], members_.back()) >= 0)
        inOrder = false;
      while (p_ < end_ && isWs(*p_)) ++p_;
      if (p_ == end_) return false;
      if (*p_ == ',') {
        ++p_;
        out.put(',');
        while (p_ < end_ && isWs(*p_)) ++p_;
      } else if (*p_ == '}') {
        ++p_;
        break;
      } else {
        return false;
      }
    }
  }
  if (withDefaults) {
    for (const uint32_t index : node->defaults) {
      if (present_[presentBase + index]) continue;
      const PlanProp& prop = node->props[index];
      if (members_.size() > base) out.put(',');
      const size_t start = out.size();
      out.put(prop.keyJson);
      out.put(prop.defaultText);
      addMember(prop.key.data(), prop.key.size(), false, start, out.size());
      inOrder = false;
    }
    present_.resize(presentBase);
  }
  if (!inOrder) rewriteSorted(regionStart, base);
  members_.resize(base);
  out.put('}');
  --depth_;
  return true;
}

void Canonicalizer::fillSortKeys(const Member* ms, uint32_t count) {
  for (uint32_t i = 0; i < count; i++) {
    const Member& m = ms[i];
    const auto* k = reinterpret_cast<const uint8_t*>(m.key);
    uint64_t second = 0;
    for (size_t j = 8; j < 16; j++) second = second << 8 | (j < m.keyLen ? k[j] : 0);
    sortKeys_[i] = SortKey{m.prefix, second, i, m.plain};
  }
}

void Canonicalizer::rewriteSorted(size_t regionStart, size_t base) {
  Buf& out = *out_;
  scratch_.clear();
  scratch_.put(out.data() + regionStart, out.size() - regionStart);
  // Sorts positions, not the members themselves; large objects sort records that carry the
  // first 16 key bytes, so that most comparisons touch no key.
  const Member* const ms = members_.data() + base;
  const uint32_t count = static_cast<uint32_t>(members_.size() - base);
  sortKeys_.resize(count);
  if (count <= 16) {
    // Small objects, the common case: insertion sort, without the second prefix.
    for (uint32_t i = 0; i < count; i++) {
      uint32_t j = i;
      while (j > 0 && compareKeys(ms[sortKeys_[j - 1].index], ms[i]) > 0) {
        sortKeys_[j] = sortKeys_[j - 1];
        j--;
      }
      sortKeys_[j].index = i;
    }
  } else {
    fillSortKeys(ms, count);
    std::sort(sortKeys_.begin(), sortKeys_.end(), [ms](const SortKey& a, const SortKey& b) {
      if (a.plain && b.plain) {
        if (a.prefix != b.prefix) return a.prefix < b.prefix;
        if (a.prefix2 != b.prefix2) return a.prefix2 < b.prefix2;
      }
      const int c = compareKeys(ms[a.index], ms[b.index]);
      return c != 0 ? c < 0 : a.index < b.index;  // equal keys stay in input order
    });
  }
  out.truncate(regionStart);
  bool firstOut = true;
  for (uint32_t i = 0; i < count; i++) {
    const Member& m = ms[sortKeys_[i].index];
    // JSON.parse keeps the last of duplicate keys: skip all but the last of a run.
    if (i + 1 < count) {
      const Member& next = ms[sortKeys_[i + 1].index];
      if (next.keyLen == m.keyLen && std::memcmp(next.key, m.key, m.keyLen) == 0) continue;
    }
    if (!firstOut) out.put(',');
    firstOut = false;
    out.put(scratch_.data() + (m.start - regionStart), m.end - m.start);
  }
}

bool Canonicalizer::string(bool isKey, const char** key, size_t* keyLen, bool* keyAscii) {
  // Locals, not members, in the loops: stores through `out` could alias p_ and would keep
  // the compiler from holding it in a register.
  const uint8_t* p = p_;
  const uint8_t* const end = end_;
  Buf& out = *out_;
  out.put('"');
  const uint8_t* const start = p;
  const uint8_t* run = p;
  bool ascii = true;
  bool decoded = false;  // the key had escapes: its decoded form is in keys_ from keyStart
  size_t keyStart = 0;
  for (;;) {
#if defined(__GNUC__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    while (end - p >= 8) {
      const uint64_t m = specialMask(load64(p));
      if (m) {
        p += __builtin_ctzll(m) >> 3;
        break;
      }
      p += 8;
    }
#else
    while (end - p >= 8 && !specialMask(load64(p))) p += 8;
#endif
    while (p < end && !kSpecial.t[*p]) ++p;
    if (p == end) return false;
    const uint8_t c = *p;
    if (c == '"') break;
    if (c >= 0x80) {
      const size_t n = utf8Length(p, end);
      if (!n) return false;
      p += n;
      ascii = false;
      continue;
    }
    if (c != '\\') return false;  // a raw control character
    out.put(run, static_cast<size_t>(p - run));
    Buf* dk = nullptr;
    if (isKey) {
      if (!decoded) {
        decoded = true;
        keyStart = keys_.size();
      }
      keys_.put(run, static_cast<size_t>(p - run));
      dk = &keys_;
    }
    if (end - p < 2) return false;
    uint32_t unit;
    switch (p[1]) {
      case '"': unit = '"'; break;
      case '\\': unit = '\\'; break;
      case '/': unit = '/'; break;
      case 'b': unit = '\b'; break;
      case 'f': unit = '\f'; break;
      case 'n': unit = '\n'; break;
      case 'r': unit = '\r'; break;
      case 't': unit = '\t'; break;
      case 'u': {
        if (end - p < 6) return false;
        const int u = hex4(p + 2);
        if (u < 0) return false;
        unit = static_cast<uint32_t>(u);
        if (unit >= 0x80) ascii = false;
        if (unit >= 0xD800 && unit <= 0xDFFF) {
          // A high surrogate escape directly followed by a low one is one character, which
          // JSON.stringify writes raw; any other surrogate is lone and stays escaped.
          if (unit <= 0xDBFF && end - p >= 12 && p[6] == '\\' && p[7] == 'u') {
            const int v = hex4(p + 8);
            if (v >= 0xDC00 && v <= 0xDFFF) {
              const uint32_t cp = 0x10000 + ((unit - 0xD800) << 10) + (static_cast<uint32_t>(v) - 0xDC00);
              putUtf8(out, cp);
              if (dk) putUtf8(*dk, cp);
              p += 12;
              run = p;
              continue;
            }
          }
          putUnitEscape(out, unit);
          if (dk) putUtf8(*dk, unit);
          p += 6;
          run = p;
          continue;
        }
        p += 4;  // the common `p += 2` below covers the backslash and the 'u'
        break;
      }
      default: return false;
    }
    p += 2;
    putUnit(out, unit);
    if (dk) putUtf8(*dk, unit);
    run = p;
  }
  out.put(run, static_cast<size_t>(p - run));
  if (isKey) {
    if (decoded) {
      keys_.put(run, static_cast<size_t>(p - run));
      *key = keys_.data() + keyStart;
      *keyLen = keys_.size() - keyStart;
    } else {
      *key = reinterpret_cast<const char*>(start);
      *keyLen = static_cast<size_t>(p - start);
    }
    *keyAscii = ascii;
  }
  p_ = p + 1;
  out.put('"');
  return true;
}

bool Canonicalizer::number() {
  const uint8_t* const s = p_;
  const bool neg = *p_ == '-';
  if (neg) ++p_;
  if (p_ == end_) return false;
  const uint8_t* const intStart = p_;
  if (*p_ == '0') {
    ++p_;
  } else if (*p_ >= '1' && *p_ <= '9') {
    while (p_ < end_ && isDigit(*p_)) ++p_;
  } else {
    return false;
  }
  const uint8_t* const intEnd = p_;
  const uint8_t* fracStart = p_;
  const uint8_t* fracEnd = p_;
  bool plain = true;
  if (p_ < end_ && *p_ == '.') {
    ++p_;
    fracStart = p_;
    if (p_ == end_ || !isDigit(*p_)) return false;
    while (p_ < end_ && isDigit(*p_)) ++p_;
    fracEnd = p_;
    plain = false;
  }
  long long exp10 = 0;  // the written exponent, saturated
  if (p_ < end_ && (*p_ | 0x20) == 'e') {
    ++p_;
    bool negExp = false;
    if (p_ < end_ && (*p_ == '+' || *p_ == '-')) negExp = *p_++ == '-';
    if (p_ == end_ || !isDigit(*p_)) return false;
    while (p_ < end_ && isDigit(*p_)) {
      if (exp10 < 1000000000) exp10 = exp10 * 10 + (*p_ - '0');
      ++p_;
    }
    if (negExp) exp10 = -exp10;
    plain = false;
  }
  // Integers of up to 15 digits are exact doubles and print as written (JSON forbids
  // leading zeros), except -0.
  if (plain && intEnd - intStart <= 15) {
    if (neg && intEnd - intStart == 1 && *intStart == '0') out_->put('0');
    else out_->put(s, static_cast<size_t>(p_ - s));
    return true;
  }
  double d;
  const auto r = std::from_chars(reinterpret_cast<const char*>(s), reinterpret_cast<const char*>(p_), d);
  if (r.ec == std::errc::result_out_of_range) {
    // Overflow (JSON.parse gives ±Infinity, which the reference rejects) or underflow to
    // ±0: tell them apart by the decimal exponent of the first significant digit.
    long long lead;
    if (intEnd - intStart > 1 || *intStart != '0') {
      lead = intEnd - intStart - 1;
    } else {
      const uint8_t* q = fracStart;
      while (q < fracEnd && *q == '0') ++q;
      lead = -(q - fracStart) - 1;
    }
    if (lead + exp10 >= 0) return false;
    d = neg ? -0.0 : 0.0;
  } else if (r.ec != std::errc() || r.ptr != reinterpret_cast<const char*>(p_)) {
    return false;
  }
  putNumber(*out_, d);
  return true;
}

}  // namespace cj
