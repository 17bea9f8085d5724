//===- HelperUser.cpp - the hook of the with_helper test plugin -----------===//
//
// What the plugin does comes from its helper library (TestHelper.cpp), so
// the library is really needed and loaded with the plugin.
//
//===----------------------------------------------------------------------===//
#include "TestPluginHooks.h"

#include "kiln/Pipeline/PipelineEditor.h"

extern "C" const char *kilnTestHelperDisabledPass();

void test_plugins::extendWithHelper(kiln::PipelineEditor &editor) {
  editor.disable(kilnTestHelperDisabledPass());
}
