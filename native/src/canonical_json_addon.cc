// N-API surface of the canonicaliser (typed in src/eval/speed/canonical-native.ts).
#include <napi.h>

#include <new>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "canonical_json.h"

namespace {

// NATIVE_ABI_VERSION comes from binding.gyp, which reads src/eval/repositories/native-addon.ts.
#ifndef NATIVE_ABI_VERSION
#error "NATIVE_ABI_VERSION is not defined: build with native/binding.gyp (scripts/build-native.mjs)"
#endif
constexpr int ABI_VERSION = NATIVE_ABI_VERSION;

// Marks the externals compilePlan returns, so canonicalize never reads a foreign pointer.
constexpr napi_type_tag kPlanTag = {0x6a63735f706c616eULL, 0x9b3c1f0d2e8a4471ULL};

// Scratch kept between calls on one thread; large buffers are dropped after use.
constexpr size_t KEEP_BYTES = 8u << 20;

struct ThreadState {
  cj::Canonicalizer canon;
  cj::Buf out;
};

ThreadState& state() {
  thread_local ThreadState s;
  return s;
}

std::string quoted(const std::u16string& key) {
  cj::Buf b;
  const std::string w = cj::wtf8FromUtf16(key.data(), key.size());
  cj::writeJsonString(b, w.data(), w.size());
  return std::string(b.data(), b.size());
}

std::vector<Napi::String> ownKeys(Napi::Env env, Napi::Object o) {
  napi_value names;
  napi_status st = napi_get_all_property_names(env, o, napi_key_own_only,
                                               static_cast<napi_key_filter>(napi_key_enumerable | napi_key_skip_symbols),
                                               napi_key_numbers_to_strings, &names);
  NAPI_THROW_IF_FAILED(env, st, {});
  Napi::Array arr(env, names);
  std::vector<Napi::String> keys;
  for (uint32_t i = 0; i < arr.Length(); i++) keys.push_back(arr.Get(i).As<Napi::String>());
  return keys;
}

class PlanCompiler {
 public:
  PlanCompiler(Napi::Env env, cj::Plan& plan) : env_(env), plan_(plan) {}

  const cj::PlanNode* node(Napi::Value v, const std::string& path) {
    if (!v.IsObject() || v.IsArray() || v.IsFunction()) fail(path + " must be a plan object");
    Napi::Object o = v.As<Napi::Object>();
    // Shared and recursive sub-plans compile once and keep their shape.
    for (auto& [obj, compiled] : seen_)
      if (obj.StrictEquals(o)) return compiled;
    plan_.nodes.push_back(std::make_unique<cj::PlanNode>());
    cj::PlanNode* n = plan_.nodes.back().get();
    seen_.emplace_back(o, n);
    for (const Napi::String& k : ownKeys(env_, o)) {
      const std::string name = k.Utf8Value();
      if (name != "props" && name != "additional" && name != "items")
        fail(path + " has an unknown field " + quoted(k.Utf16Value()) + " (expected props, additional, items)");
    }
    Napi::Value props = o.Get("props");
    if (!props.IsUndefined()) {
      if (!props.IsObject() || props.IsArray() || props.IsFunction()) fail(path + ".props must be an object");
      Napi::Object po = props.As<Napi::Object>();
      for (const Napi::String& k : ownKeys(env_, po)) {
        const std::u16string key16 = k.Utf16Value();
        const std::string where = path + ".props[" + quoted(key16) + "]";
        Napi::Value entry = po.Get(k);
        if (!entry.IsObject() || entry.IsArray() || entry.IsFunction()) fail(where + " must be an object");
        Napi::Object eo = entry.As<Napi::Object>();
        for (const Napi::String& f : ownKeys(env_, eo)) {
          const std::string name = f.Utf8Value();
          if (name != "node" && name != "default")
            fail(where + " has an unknown field " + quoted(f.Utf16Value()) + " (expected node, default)");
        }
        cj::PlanProp prop;
        prop.key = cj::wtf8FromUtf16(key16.data(), key16.size());
        prop.keyJson = quoted(key16) + ":";
        Napi::Value child = eo.Get("node");
        if (!child.IsUndefined()) prop.node = node(child, where + ".node");
        Napi::Value def = eo.Get("default");
        if (!def.IsUndefined()) {
          if (!def.IsString()) fail(where + ".default must be a string of canonical JSON");
          const std::u16string text16 = def.As<Napi::String>().Utf16Value();
          prop.defaultText = cj::wtf8FromUtf16(text16.data(), text16.size());
          prop.hasDefault = true;
          // It is inserted verbatim, so it must already be exactly what canonicalize writes.
          cj::Canonicalizer check;
          cj::Buf out;
          const auto* bytes = reinterpret_cast<const uint8_t*>(prop.defaultText.data());
          if (!check.run(bytes, prop.defaultText.size(), nullptr, out) || out.size() != prop.defaultText.size() ||
              std::memcmp(out.data(), prop.defaultText.data(), out.size()) != 0)
            fail(where + ".default is not canonical JSON");
        }
        n->props.push_back(std::move(prop));
      }
      std::sort(n->props.begin(), n->props.end(),
                [](const cj::PlanProp& a, const cj::PlanProp& b) { return a.key < b.key; });
      for (size_t i = 0; i < n->props.size(); i++)
        if (n->props[i].hasDefault) n->defaults.push_back(static_cast<uint32_t>(i));
    }
    Napi::Value additional = o.Get("additional");
    if (!additional.IsUndefined()) n->additional = node(additional, path + ".additional");
    Napi::Value items = o.Get("items");
    if (!items.IsUndefined()) n->items = node(items, path + ".items");
    return n;
  }

 private:
  [[noreturn]] void fail(const std::string& msg) { throw Napi::TypeError::New(env_, msg); }

  Napi::Env env_;
  cj::Plan& plan_;
  std::vector<std::pair<Napi::Object, cj::PlanNode*>> seen_;
};

Napi::Value CompilePlan(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  auto plan = std::make_unique<cj::Plan>();
  PlanCompiler compiler(env, *plan);
  plan->root = compiler.node(info.Length() > 0 ? info[0] : env.Undefined(), "plan");
  auto handle = Napi::External<cj::Plan>::New(env, plan.get(), [](Napi::Env, cj::Plan* p) { delete p; });
  plan.release();
  NAPI_THROW_IF_FAILED(env, napi_type_tag_object(env, handle, &kPlanTag), {});
  return handle;
}

Napi::Value Canonicalize(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() < 1 || !info[0].IsTypedArray() ||
      info[0].As<Napi::TypedArray>().TypedArrayType() != napi_uint8_array)
    throw Napi::TypeError::New(env, "bytes must be a Uint8Array");
  auto bytes = info[0].As<Napi::Uint8Array>();
  const cj::PlanNode* root = nullptr;
  if (info.Length() > 1 && !info[1].IsUndefined() && !info[1].IsNull()) {
    bool tagged = false;
    if (info[1].IsExternal()) NAPI_THROW_IF_FAILED(env, napi_check_object_type_tag(env, info[1], &kPlanTag, &tagged), {});
    if (!tagged) throw Napi::TypeError::New(env, "plan must be a handle returned by compilePlan");
    root = info[1].As<Napi::External<cj::Plan>>().Data()->root;
  }
  ThreadState& st = state();
  bool ok;
  try {
    ok = st.canon.run(bytes.Data(), bytes.ByteLength(), root, st.out);
  } catch (const std::bad_alloc&) {
    // Out of memory on a huge document: decline, and let the TypeScript path answer (or fail
    // with a JavaScript error) instead of terminating the process.
    ok = false;
  }
  Napi::Value result = ok ? Napi::Value(Napi::Buffer<char>::Copy(env, st.out.data(), st.out.size())) : env.Null();
  st.canon.trim(KEEP_BYTES);
  if (st.out.capacity() > KEEP_BYTES) st.out.release();
  return result;
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("version", Napi::Number::New(env, ABI_VERSION));
  exports.Set("compilePlan", Napi::Function::New(env, CompilePlan, "compilePlan"));
  exports.Set("canonicalize", Napi::Function::New(env, Canonicalize, "canonicalize"));
  return exports;
}

}  // namespace

NODE_API_MODULE(canonical_json, Init)
