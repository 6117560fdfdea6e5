{
  "variables": { "native_abi_version": "<!(node ../scripts/native-abi.mjs)" },
  "targets": [
    {
      "target_name": "graph_kernel",
      "sources": ["src/features.cc", "src/score.cc", "src/kernel.cc", "src/addon.cc"],
      "include_dirs": ["<!(node -p \"require('path').dirname(require.resolve('node-addon-api/package.json'))\")"],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS", "NATIVE_ABI_VERSION=<(native_abi_version)"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions"],
      "cflags_cc": ["-std=c++17", "-O3", "-fexceptions", "-ffp-contract=off", "-fno-fast-math", "-flto"],
      "ldflags": ["-flto", "-O3"],
      "xcode_settings": {
        "GCC_ENABLE_CPP_EXCEPTIONS": "YES",
        "OTHER_CPLUSPLUSFLAGS": ["-std=c++17", "-O3", "-ffp-contract=off"]
      },
      "conditions": [["target_arch=='x64'", { "cflags_cc": ["-mpopcnt"] }]],
      "msvs_settings": { "VCCLCompilerTool": { "ExceptionHandling": 1, "AdditionalOptions": ["/fp:precise"] } }
    },
    {
      "target_name": "canonical_json",
      "sources": ["src/canonical_json.cc", "src/canonical_json_addon.cc"],
      "include_dirs": ["<!(node -p \"require('path').dirname(require.resolve('node-addon-api/package.json'))\")"],
      "defines": ["NAPI_VERSION=8", "NAPI_CPP_EXCEPTIONS", "NATIVE_ABI_VERSION=<(native_abi_version)"],
      "cflags!": ["-fno-exceptions"],
      "cflags_cc!": ["-fno-exceptions"],
      "cflags_cc": ["-std=c++17", "-O3", "-fexceptions", "-ffp-contract=off", "-fno-fast-math", "-flto"],
      "ldflags": ["-flto", "-O3"],
      "xcode_settings": {
        "GCC_ENABLE_CPP_EXCEPTIONS": "YES",
        "OTHER_CPLUSPLUSFLAGS": ["-std=c++17", "-O3", "-ffp-contract=off"]
      },
      "msvs_settings": { "VCCLCompilerTool": { "ExceptionHandling": 1, "AdditionalOptions": ["/fp:precise"] } }
    }
  ]
}
