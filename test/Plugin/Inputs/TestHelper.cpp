//===- TestHelper.cpp - a library of the with_helper test plugin's own ----===//
//
// Linked by with_helper.so (its LINK_LIBS); a rebuild of this library alone
// must change the compile cache key.
//
//===----------------------------------------------------------------------===//

extern "C" __attribute__((visibility("default"))) const char *kilnTestHelperDisabledPass() {
  return "ttir.loop-unroll";
}
