//===- TritonAttrs.td - tt dialect attributes ------------------*- tablegen -*-===//
#ifndef KILN_TRITON_ATTRS
#define KILN_TRITON_ATTRS

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "kiln/Dialect/Triton/IR/TritonDialect.td"
include "kiln/Dialect/Triton/IR/TritonAttrDefs.td"

def TT_CachePolicyAttr : AttrDef<Triton_Dialect, "CachePolicy"> {
  let mnemonic = "cache_policy";
  let summary = "cache hints of a load or store, as Triton 3.9 spells them";
  let description = [{
    `{cachePolicy = #tt.cache_policy<cache_modifier = cg, eviction_policy =
    evict_normal>}` on tt.load, tt.store and tt.descriptor_load. kiln reads
    it into the ops' `cache` and `evict` attributes, the same ones Triton
    3.6's `cacheModifier = ...` / `evictionPolicy = ...` spelling sets; it
    never stays on an op.
  }];
  let parameters = (ins EnumParameter<TT_CacheModifierAttr>:$cacheModifier,
                        EnumParameter<TT_EvictionPolicyAttr>:$evictionPolicy);
  let assemblyFormat = [{
    `<` `cache_modifier` `=` $cacheModifier `,` `eviction_policy` `=` $evictionPolicy `>`
  }];
}

#endif
