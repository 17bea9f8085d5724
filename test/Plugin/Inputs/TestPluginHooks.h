//===- TestPluginHooks.h - callbacks of the test plugins --------*- C++ -*-===//
//
// Only forward declarations, so each per-variant TestPluginInfo.cpp compiles
// in a moment.
//
//===----------------------------------------------------------------------===//
#ifndef KILN_TEST_PLUGIN_HOOKS_H
#define KILN_TEST_PLUGIN_HOOKS_H

#include "kiln/Plugin/PluginAPI.h"

namespace test_plugins {
void extendOrder(kiln::PipelineEditor &);
void extendPredicate(kiln::PipelineEditor &);
void extendPredicateChain(kiln::PipelineEditor &);
void extendAmdOnly(kiln::PipelineEditor &);
void extendEveryEdit(kiln::PipelineEditor &);
void extendCodegenPasses(kiln::PipelineEditor &);
void extendOverrideTtir(kiln::PipelineEditor &);
void extendOverrideTtirDroppingModule(kiln::PipelineEditor &);
void extendWithHelper(kiln::PipelineEditor &); // HelperUser.cpp
void extendReplaceCombine(kiln::PipelineEditor &);
void extendDisableCombine(kiln::PipelineEditor &);
void extendFailingPass(kiln::PipelineEditor &);
void extendFuncPasses(kiln::PipelineEditor &);
void extendUnknownPassOnOneTarget(kiln::PipelineEditor &);
void extendUnknownPass(kiln::PipelineEditor &);
void extendUnknownStage(kiln::PipelineEditor &);
void extendCodegenStageAppend(kiln::PipelineEditor &);
void extendUnnamespacedId(kiln::PipelineEditor &);
void extendBadScope(kiln::PipelineEditor &);
void passesClashingWithCore(kiln::PassRegistrar &);
void passesClashingWithUpstream(kiln::PassRegistrar &);
void passesWithoutPrefix(kiln::PassRegistrar &);
void dialectsClashingWithHost(mlir::DialectRegistry &);
void opsTwice(kiln::OpRegistry &);
void opsElementwiseBadResult(kiln::OpRegistry &);
} // namespace test_plugins

#endif
