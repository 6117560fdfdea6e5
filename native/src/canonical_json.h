// RFC 8785 (JCS) canonical JSON written straight from raw UTF-8 request bytes, with schema
// defaults inserted on the way. The reference is canonicalJson(JSON.parse(text)) in
// src/core/canonical-json.ts; whenever this code could disagree with it, it refuses (returns
// false) and the caller falls back to the reference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace cj {

constexpr int MAX_DEPTH = 1000;

struct PlanNode;

struct PlanProp {
  std::string key;      // decoded key as WTF-8 (a lone surrogate as its 3-byte form)
  std::string keyJson;  // `"key":` exactly as the canonical output writes it
  const PlanNode* node = nullptr;
  bool hasDefault = false;
  std::string defaultText;  // canonical JSON, inserted verbatim
};

struct PlanNode {
  std::vector<PlanProp> props;      // sorted by key bytes, for binary search
  std::vector<uint32_t> defaults;   // indices into props of the entries with a default
  const PlanNode* additional = nullptr;
  const PlanNode* items = nullptr;

  const PlanProp* find(const char* key, size_t len, size_t* index) const;
};

// Owns every node; nodes may be shared or form cycles (recursive schemas).
struct Plan {
  std::vector<std::unique_ptr<PlanNode>> nodes;
  const PlanNode* root = nullptr;
};

// A growable byte buffer that does not zero what it reserves.
class Buf {
 public:
  Buf() = default;
  Buf(const Buf&) = delete;
  Buf& operator=(const Buf&) = delete;
  ~Buf() { std::free(p_); }

  char* data() { return p_; }
  const char* data() const { return p_; }
  size_t size() const { return n_; }
  size_t capacity() const { return cap_; }
  void clear() { n_ = 0; }
  void truncate(size_t n) { n_ = n; }
  void release() {
    std::free(p_);
    p_ = nullptr;
    n_ = cap_ = 0;
  }
  void reserve(size_t want) {
    if (want <= cap_) return;
    size_t cap = cap_ ? cap_ : 256;
    while (cap < want) cap *= 2;
    // With nothing to keep, a fresh block avoids realloc copying stale bytes.
    if (n_ == 0) release();
    char* q = static_cast<char*>(std::realloc(p_, cap));
    if (!q) throw std::bad_alloc();
    p_ = q;
    cap_ = cap;
  }
  void put(char c) {
    if (n_ == cap_) reserve(n_ + 1);
    p_[n_++] = c;
  }
  void put(const void* s, size_t len) {
    if (cap_ - n_ < len) reserve(n_ + len);
    if (len) std::memcpy(p_ + n_, s, len);
    n_ += len;
  }
  void put(const std::string& s) { put(s.data(), s.size()); }

 private:
  char* p_ = nullptr;
  size_t n_ = 0, cap_ = 0;
};

// Compares two WTF-8 strings in UTF-16 code-unit order (JavaScript's string order).
int compareUtf16(const char* a, size_t alen, const char* b, size_t blen);

// Appends `s` (WTF-8) as a JSON string literal the way JSON.stringify writes it.
void writeJsonString(Buf& out, const char* s, size_t len);

// Converts UTF-16 to WTF-8 (lone surrogates keep their 3-byte form).
std::string wtf8FromUtf16(const char16_t* s, size_t len);

class Canonicalizer {
 public:
  // Writes the canonical JSON of `data` to `out` (cleared first). Returns false on invalid
  // UTF-8, input that is not RFC 8259 JSON, nesting deeper than MAX_DEPTH or a number that
  // overflows a double; `out` then holds garbage.
  bool run(const uint8_t* data, size_t len, const PlanNode* plan, Buf& out);

  // Frees scratch memory kept from large inputs.
  void trim(size_t keepBytes);

 private:
  struct Member {
    const char* key;  // decoded, WTF-8: into the input, keys_ or the plan
    size_t keyLen;
    // The key's first 8 bytes, big-endian and zero-padded, so that most comparisons are one
    // integer comparison. `plain`: no byte of the key is >= 0xED, so byte order is UTF-16
    // order for it (see compareUtf16).
    uint64_t prefix;
    bool plain;
    size_t start, end;  // the member's `"key":value` bytes in the output
  };
  struct SortKey {
    uint64_t prefix, prefix2;  // the key's bytes 0..7 and 8..15, big-endian, zero-padded
    uint32_t index;            // into the object's members
    bool plain;
  };

  bool value(const PlanNode* node);
  bool object(const PlanNode* node);
  bool array(const PlanNode* node);
  bool string(bool isKey, const char** key, size_t* keyLen, bool* keyAscii);
  bool number();
  bool literal(const char* word, size_t len);
  void addMember(const char* key, size_t keyLen, bool ascii, size_t start, size_t end);
  static int compareKeys(const Member& a, const Member& b);
  void fillSortKeys(const Member* ms, uint32_t count);
  void rewriteSorted(size_t regionStart, size_t base);

  const uint8_t* p_ = nullptr;
  const uint8_t* end_ = nullptr;
  Buf* out_ = nullptr;
  int depth_ = 0;
  Buf keys_;     // decoded keys that had escapes; reserved to the input size so never moves
  Buf scratch_;  // an object's members while they are put in order
  std::vector<Member> members_;  // a stack: the members of every object being written
  std::vector<SortKey> sortKeys_;
  std::vector<uint8_t> present_;  // a stack: which plan props each open object has
};

}  // namespace cj
