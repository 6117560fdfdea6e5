// N-API surface of the graph kernel (typed in src/eval/speed/graph-kernel-native.ts).
#include <napi.h>

#include <string>

#include "kernel.h"

namespace {

// NATIVE_ABI_VERSION comes from binding.gyp, which reads src/eval/repositories/native-addon.ts.
#ifndef NATIVE_ABI_VERSION
#error "NATIVE_ABI_VERSION is not defined: build with native/binding.gyp (scripts/build-native.mjs)"
#endif
constexpr int ABI_VERSION = NATIVE_ABI_VERSION;

int intArg(const Napi::CallbackInfo& info, size_t i, const char* name, int lo, int hi) {
  if (info.Length() <= i || !info[i].IsNumber()) throw Napi::TypeError::New(info.Env(), std::string(name) + " must be a number");
  double v = info[i].As<Napi::Number>().DoubleValue();
  if (v != (double)(int64_t)v || v < lo || v > hi)
    throw Napi::RangeError::New(info.Env(), std::string(name) + " must be an integer in " + std::to_string(lo) + ".." + std::to_string(hi));
  return (int)v;
}

gk::Graph graphFrom(const Napi::Env& env, int n, const uint16_t* adj) {
  gk::Graph g;
  g.n = n;
  const uint32_t all = gk::allMask(n);
  for (int v = 0; v < n; v++) {
    if ((adj[v] & ~all) || (adj[v] >> v & 1u)) throw Napi::RangeError::New(env, "adjacency mask out of range or with a loop");
    g.adj[v] = adj[v];
  }
  for (int v = 0; v < n; v++)
    for (uint32_t f = g.adj[v]; f; f &= f - 1)
      if (!((g.adj[gk::lowbit(f)] >> v) & 1u)) throw Napi::RangeError::New(env, "adjacency is not symmetric");
  return g;
}

Napi::Float64Array allFeatures(Napi::Env env, const gk::Graph* graphs, size_t count) {
  auto out = Napi::Float64Array::New(env, count * gk::FEATURE_COUNT);
  gk::FeatureCache f;
  for (size_t i = 0; i < count; i++) {
    f.reset(&graphs[i]);
    for (int id = 0; id < gk::FEATURE_COUNT; id++) out[i * gk::FEATURE_COUNT + id] = f.get(id);
  }
  return out;
}

Napi::Value Features(const Napi::CallbackInfo& info) {
  const int n = intArg(info, 0, "n", 1, gk::MAX_N);
  if (info.Length() < 2 || !info[1].IsTypedArray() || info[1].As<Napi::TypedArray>().TypedArrayType() != napi_uint16_array)
    throw Napi::TypeError::New(info.Env(), "adj must be a Uint16Array");
  auto adj = info[1].As<Napi::Uint16Array>();
  if ((int)adj.ElementLength() < n) throw Napi::RangeError::New(info.Env(), "adj is shorter than n");
  gk::Graph g = graphFrom(info.Env(), n, adj.Data());
  return allFeatures(info.Env(), &g, 1);
}

Napi::Value FeaturesBatch(const Napi::CallbackInfo& info) {
  const int n = intArg(info, 0, "n", 1, gk::MAX_N);
  if (info.Length() < 3 || !info[1].IsTypedArray() || info[1].As<Napi::TypedArray>().TypedArrayType() != napi_uint16_array)
    throw Napi::TypeError::New(info.Env(), "adj must be a Uint16Array");
  auto adj = info[1].As<Napi::Uint16Array>();
  const int count = intArg(info, 2, "count", 0, 1 << 24);
  if (adj.ElementLength() < (size_t)count * n) throw Napi::RangeError::New(info.Env(), "adj is shorter than count * n");
  std::vector<gk::Graph> graphs((size_t)count);
  for (int i = 0; i < count; i++) graphs[i] = graphFrom(info.Env(), n, adj.Data() + (size_t)i * n);
  return allFeatures(info.Env(), graphs.data(), graphs.size());
}

gk::Program programFrom(const Napi::CallbackInfo& info) {
  if (info.Length() < 2 || !info[0].IsTypedArray() || info[0].As<Napi::TypedArray>().TypedArrayType() != napi_int32_array)
    throw Napi::TypeError::New(info.Env(), "program must be an Int32Array");
  if (!info[1].IsTypedArray() || info[1].As<Napi::TypedArray>().TypedArrayType() != napi_float64_array)
    throw Napi::TypeError::New(info.Env(), "constants must be a Float64Array");
  auto code = info[0].As<Napi::Int32Array>();
  auto constants = info[1].As<Napi::Float64Array>();
  gk::Program p;
  p.code.assign(code.Data(), code.Data() + code.ElementLength());
  p.constants.assign(constants.Data(), constants.Data() + constants.ElementLength());
  if (p.code.size() < 8) throw Napi::RangeError::New(info.Env(), "program is too short");
  p.claimKind = p.code[0];
  p.rootA = p.code[1];
  p.rootB = p.code[2];
  p.nodeCount = p.code[3];
  try {
    p.validate();
  } catch (const std::exception& e) {
    throw Napi::RangeError::New(info.Env(), e.what());
  }
  return p;
}

Napi::Array adjArray(Napi::Env env, const gk::Graph& g) {
  auto arr = Napi::Array::New(env, g.n);
  for (int v = 0; v < g.n; v++) arr[(uint32_t)v] = Napi::Number::New(env, g.adj[v]);
  return arr;
}

Napi::Value Anneal(const Napi::CallbackInfo& info) {
  gk::Program p = programFrom(info);
  const int n = intArg(info, 2, "n", 2, gk::MAX_N);
  const int steps = intArg(info, 3, "steps", 0, 1 << 30);
  if (info.Length() < 5 || !info[4].IsTypedArray() || info[4].As<Napi::TypedArray>().TypedArrayType() != napi_uint32_array ||
      info[4].As<Napi::Uint32Array>().ElementLength() != 4)
    throw Napi::TypeError::New(info.Env(), "state must be a Uint32Array of 4 words");
  auto st = info[4].As<Napi::Uint32Array>();
  const uint32_t state[4] = {st[0], st[1], st[2], st[3]};
  gk::AnnealResult r = gk::anneal(p, n, steps, state);
  auto out = Napi::Object::New(info.Env());
  out.Set("found", r.found);
  out.Set("bestScore", r.bestScore);
  out.Set("stepsRun", r.stepsRun);
  out.Set("adj", adjArray(info.Env(), r.best));
  return out;
}

Napi::Value Exhaustive(const Napi::CallbackInfo& info) {
  gk::Program p = programFrom(info);
  // 2^36 labelled graphs on 9 vertices is already beyond any budget; refuse larger n.
  const int n = intArg(info, 2, "n", 1, 9);
  if (info.Length() < 4 || !info[3].IsBoolean()) throw Napi::TypeError::New(info.Env(), "sortedDegreesOnly must be a boolean");
  gk::ExhaustiveResult r = gk::exhaustive(p, n, info[3].As<Napi::Boolean>().Value());
  auto out = Napi::Object::New(info.Env());
  out.Set("found", r.found);
  out.Set("visited", r.visited);
  out.Set("evaluated", r.evaluated);
  out.Set("adj", r.found ? Napi::Value(adjArray(info.Env(), r.witness)) : info.Env().Null());
  return out;
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  exports.Set("version", Napi::Number::New(env, ABI_VERSION));
  exports.Set("features", Napi::Function::New(env, Features));
  exports.Set("featuresBatch", Napi::Function::New(env, FeaturesBatch));
  exports.Set("anneal", Napi::Function::New(env, Anneal));
  exports.Set("exhaustive", Napi::Function::New(env, Exhaustive));
  return exports;
}

}  // namespace

NODE_API_MODULE(graph_kernel, Init)
